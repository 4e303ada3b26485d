/**
 * `bun run cli extract <url> --prompt "…" [--schema file.json] [--all] [--no-cache]` and
 * `bun run cli summarize <url> [--length short|medium|long] [--mode auto|llm|extractive]
 * [--format F]… [--all] [--no-cache] [--json]`: the same work as POST /v1/extract and
 * /v1/summarize, without a server. The flags are parsed straight into the internal requests,
 * checked by the same schemas as every wire format. Extract prints the /v1 response (JSON);
 * summarize prints the summary, or with `--json` the /v1 response. Exit 2 for bad input, 1 when
 * the work fails (no model configured, the page or the model failed), with the reason on stderr.
 */
import { readFileSync } from 'node:fs';
import type { z } from 'zod';
import { TrawlError } from '../core/errors.ts';
import { ExtractTokens } from '../core/features/extract/index.ts';
import { extractRequestSchema } from '../core/features/extract/request.ts';
import { SummarizeTokens } from '../core/features/summarize/index.ts';
import { summarizeRequestSchema } from '../core/features/summarize/request.ts';
import { describeZodError } from '../core/validation.ts';
import type { Trawl } from '../core/container.ts';
import { bootTrawl } from '../server/boot.ts';
import { presentExtract, presentSummarize } from '../server/wire/v1/present.ts';
import { parseOneArgCommand } from './flags.ts';

export const EXTRACT_USAGE = `Usage: bun run cli extract <url> --prompt "<what to extract>" [options]
  --prompt, -p TEXT  what to extract; without --schema a schema is generated from it
  --schema FILE      a JSON Schema file the data must match
  --all              the whole page, not only its main content
  --no-cache         fetch the page afresh`;

export const SUMMARIZE_USAGE = `Usage: bun run cli summarize <url> [options]
  --length L       short, medium (default) or long
  --mode M         auto (default: the configured model, else extractive), llm or extractive
  --format, -f F   scrape formats to add to the --json output (repeatable)
  --all            the whole page, not only its main content
  --no-cache       fetch the page afresh
  --json           print the whole /v1 response`;

/** Messages name the flag that set a field. */
const FLAGS: Readonly<Record<string, string>> = { prompt: '--prompt', schema: '--schema', onlyMainContent: '--all', noCache: '--no-cache', length: '--length', mode: '--mode', formats: '--format' };

async function run(work: (trawl: Trawl) => Promise<string>): Promise<number> {
  const trawl = await bootTrawl({ overrides: { log: { level: process.env.TRAWL_LOG_LEVEL?.trim() || 'warn' } } });
  try {
    console.log(await work(trawl));
    return 0;
  } catch (err) {
    console.error(err instanceof TrawlError ? err.message : `Unexpected error: ${(err as Error).message}`);
    return err instanceof TrawlError && err.status === 400 ? 2 : 1;
  } finally {
    await trawl.shutdown();
  }
}

function parsed<S extends z.ZodType>(schema: S, input: Record<string, unknown>): z.output<S> | null {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  console.error(describeZodError(result.error, input, (field) => FLAGS[field] ?? field));
  return null;
}

export async function extractMain(argv: string[]): Promise<number> {
  const flags = parseOneArgCommand(argv, {
    prompt: { type: 'string', short: 'p' },
    schema: { type: 'string' },
    all: { type: 'boolean', default: false },
    'no-cache': { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  }, EXTRACT_USAGE);
  if (typeof flags === 'number') return flags;
  const { values, arg } = flags;
  let schema: unknown;
  if (values.schema !== undefined) {
    try {
      schema = JSON.parse(readFileSync(values.schema, 'utf8'));
    } catch (err) {
      console.error(`--schema ${values.schema}: ${(err as Error).message}`);
      return 2;
    }
  }
  const request = parsed(extractRequestSchema, { url: arg, prompt: values.prompt, schema, onlyMainContent: !values.all, noCache: values['no-cache'] });
  if (!request) return 2;
  return run(async (trawl) => JSON.stringify(presentExtract(await trawl.container.resolve(ExtractTokens.Service).extract(request, 'default', undefined, (f) => FLAGS[f] ?? f)), null, 2));
}

export async function summarizeMain(argv: string[]): Promise<number> {
  const flags = parseOneArgCommand(argv, {
    length: { type: 'string' },
    mode: { type: 'string' },
    format: { type: 'string', short: 'f', multiple: true },
    all: { type: 'boolean', default: false },
    'no-cache': { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  }, SUMMARIZE_USAGE);
  if (typeof flags === 'number') return flags;
  const { values, arg } = flags;
  const request = parsed(summarizeRequestSchema, { url: arg, length: values.length, mode: values.mode, formats: values.format, onlyMainContent: !values.all, noCache: values['no-cache'] });
  if (!request) return 2;
  return run(async (trawl) => {
    const outcome = await trawl.container.resolve(SummarizeTokens.Service).summarize(request, 'default', undefined, (f) => FLAGS[f] ?? f);
    return values.json ? JSON.stringify(presentSummarize(outcome), null, 2) : outcome.summary;
  });
}
