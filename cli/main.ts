/**
 * The command line: `bun run cli scrape <url> [--format F]… [--main] [--include SEL]… [--exclude SEL]…
 * [--no-cache] [--json]` runs the same pipeline as the server, without a server, and prints the
 * result: a text format as-is, structured formats as JSON, `--json` the whole result object in
 * the /v1 shape. The flags are a wire format of their own: they are parsed straight into the
 * internal request (validated by the same composed schema as every other wire format).
 * `bun run cli search "query" …` is cli/search.ts; `extract` and `summarize` are cli/llm.ts.
 * `bun run cli mcp` is the MCP server on stdio (cli/mcp.ts). `bun run cli admin …` manages workspaces, keys and credits (cli/admin.ts).
 */
import { TrawlError } from '../core/errors.ts';
import { adminMain } from './admin.ts';
import { composeRequestSchema } from '../core/model/compose.ts';
import type { ScrapeResult } from '../core/model/result.ts';
import { describeZodError } from '../core/validation.ts';
import { builtinPlugins } from '../plugins/index.ts';
import { bootTrawl } from '../server/boot.ts';
import { presentResult, v1FormatField } from '../server/wire/v1/present.ts';
import { parseFlags } from './flags.ts';
import { EXTRACT_USAGE, extractMain, SUMMARIZE_USAGE, summarizeMain } from './llm.ts';
import { MCP_USAGE, mcpMain } from './mcp.ts';
import { searchMain, SEARCH_USAGE } from './search.ts';

const USAGE = `Usage: bun run cli scrape <url> [options]   (or: bun run cli admin --help)
  --format, -f F   markdown (default), text, json, links, rawHtml, … (repeatable)
  --main           only the main content (only_main_content)
  --include SEL    CSS selector to keep (repeatable)
  --exclude SEL    CSS selector to remove (repeatable)
  --no-cache       bypass the response cache
  --json           print the whole result object as JSON`;

/** Messages name the flag that set a field. */
const FLAGS: Readonly<Record<string, string>> = { formats: '--format', onlyMainContent: '--main', includeSelectors: '--include', excludeSelectors: '--exclude', noCache: '--no-cache' };

export function render(result: ScrapeResult, formats: string[], asJson: boolean): string {
  const presented = presentResult(result);
  if (asJson || formats.length > 1) return JSON.stringify(presented, null, 2);
  const value = presented[v1FormatField(formats[0]!)];
  return typeof value === 'string' ? value : JSON.stringify(value ?? null, null, 2);
}

export async function main(argv: string[]): Promise<number> {
  if (argv[0] === 'admin') return adminMain(argv.slice(1));
  if (argv[0] === 'search') return searchMain(argv.slice(1));
  if (argv[0] === 'extract') return extractMain(argv.slice(1));
  if (argv[0] === 'summarize') return summarizeMain(argv.slice(1));
  if (argv[0] === 'mcp') return mcpMain(argv.slice(1));
  const parsed = parseFlags(argv, {
    format: { type: 'string', short: 'f', multiple: true },
    main: { type: 'boolean', default: false },
    include: { type: 'string', multiple: true },
    exclude: { type: 'string', multiple: true },
    'no-cache': { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  }, USAGE);
  if (!parsed) return 2;
  const { values, positionals } = parsed;
  const [command, url] = positionals;
  if (values.help || command !== 'scrape' || !url) {
    console.error(`${USAGE}\n\n${SEARCH_USAGE}\n\n${EXTRACT_USAGE}\n\n${SUMMARIZE_USAGE}\n\n${MCP_USAGE}`);
    return values.help ? 0 : 2;
  }
  const input = {
    url,
    formats: values.format ?? ['markdown'],
    onlyMainContent: values.main,
    includeSelectors: values.include,
    excludeSelectors: values.exclude,
    noCache: values['no-cache'],
  };
  const request = composeRequestSchema(builtinPlugins).parse(input);
  if (!request.success) {
    console.error(describeZodError(request.error, input, (field) => FLAGS[field] ?? field));
    return 2;
  }
  const trawl = await bootTrawl({ overrides: { log: { level: process.env.TRAWL_LOG_LEVEL?.trim() || 'warn' } } });
  try {
    const { result } = await trawl.scraper.scrape(request.data, 'default');
    console.log(render(result, request.data.formats, values.json));
    return 0;
  } catch (err) {
    console.error(err instanceof TrawlError ? err.message : `Unexpected error: ${(err as Error).message}`);
    return 1;
  } finally {
    await trawl.shutdown();
  }
}

if (import.meta.main) process.exit(await main(Bun.argv.slice(2)));
