/**
 * `crawl <url>` and `batch <url…>`: start the run (POST /v1/crawl, /v1/batch), follow it with
 * progress, then print every page (one format as text under a `==> url <==` line, or JSON) or
 * write one file per page with `--out-dir`. `--no-wait` prints the run's id and leaves it running.
 */
import { readFileSync } from 'node:fs';
import { isTerminal } from '../../core/features/crawl/present.ts';
import type { Command } from 'commander';
import type { Api } from '../client.ts';
import { apiCommand, collect, defined, integer, withApi, type ApiFlags } from '../command.ts';
import { CliError, type FlagNames } from '../errors.ts';
import { allPages, follow, type JobStatus } from '../follow.ts';
import { emit, json, pageOutput, writePages } from '../output.ts';
import { formatsOf, pageFlagNames, pageOptions, scrapeFields, type PageFlags } from './page-options.ts';

interface RunFlags extends PageFlags, ApiFlags {
  out?: string;
  outDir?: string;
  wait: boolean;
  progress: boolean;
  webhook?: string;
}

type Page = Record<string, unknown> & { url: string; status: string; error?: string };

function runOptions(command: Command): Command {
  return pageOptions(command)
    .option('--webhook <url>', "where to POST the run's events")
    .option('--out-dir <dir>', 'write one file per page into this folder (named from the page URL)')
    .option('-o, --out <file>', 'write the output to a file instead of stdout')
    .option('--no-wait', "print the run's id and return; the run goes on")
    .option('--no-progress', 'no progress on stderr');
}

async function run(api: Api, kind: 'crawl' | 'batch', body: Record<string, unknown>, flags: RunFlags, names: FlagNames): Promise<void> {
  const started = await api.call<{ id: string }>('POST', `/v1/${kind}`, body, names);
  if (!flags.wait) {
    emit(started.id, flags.out);
    return;
  }
  const unit = kind === 'crawl' ? 'pages' : 'URLs';
  const status = await follow<JobStatus>(api, {
    path: `/v1/${kind}/${started.id}?per_page=1`,
    finished: isTerminal,
    cancel: `/v1/${kind}/${started.id}`,
    label: kind,
    unit,
    show: flags.progress,
  });
  if (status.status !== 'completed') throw new CliError(`The ${kind} ${status.status}${status.error ? `: ${status.error}` : ''}`, 1);
  const pages = await allPages<Page>(api, `/v1/${kind}/${started.id}?per_page=100`);
  for (const page of pages) if (page.status === 'failed') process.stderr.write(`failed: ${page.url}: ${page.error}\n`);
  const done = pages.filter((page) => page.status === 'completed');
  const formats = formatsOf(flags);
  if (flags.outDir) {
    const written = writePages(
      flags.outDir,
      done.map((page) => ({ url: page.url, ...pageOutput(page, formats, flags.json === true) })),
    );
    emit(written.join('\n'), flags.out);
  } else if (flags.json) {
    emit(json({ ...status, data: pages }), flags.out);
  } else {
    emit(done.map((page) => `==> ${page.url} <==\n${pageOutput(page, formats, false).text.trimEnd()}\n`).join('\n'), flags.out);
  }
}

export const crawlCommand = () =>
  runOptions(apiCommand('crawl', 'Crawl a site from a start page, with progress; print or save every page'))
    .argument('<url>', 'the start page')
    .option('--max-depth <n>', 'how many links deep to follow', integer)
    .option('--max-pages <n>', 'stop after this many pages', integer)
    .option('--include-path <pattern>', 'only follow paths matching this pattern (repeatable)', collect, [])
    .option('--exclude-path <pattern>', 'never follow paths matching this pattern (repeatable)', collect, [])
    .option('--subdomains', 'also follow links to other hosts of the same domain')
    .option('--external', 'also follow links to other sites')
    .option('--sitemap <mode>', "skip (default), include or only: use the site's sitemaps")
    .addHelpText(
      'after',
      '\nExamples:\n  bun run cli crawl https://example.com --max-pages 50 --out-dir pages\n  bun run cli crawl https://example.com --format text --json > crawl.json',
    )
    .action(
      (
        url: string,
        flags: RunFlags & {
          maxDepth?: number;
          maxPages?: number;
          includePath: string[];
          excludePath: string[];
          subdomains?: boolean;
          external?: boolean;
          sitemap?: string;
        },
      ) =>
        withApi(
          flags,
          (api) =>
            run(
              api,
              'crawl',
              defined({
                url,
                max_depth: flags.maxDepth,
                max_pages: flags.maxPages,
                include_paths: flags.includePath,
                exclude_paths: flags.excludePath,
                allow_subdomains: flags.subdomains,
                allow_external_links: flags.external,
                sitemap: flags.sitemap,
                webhook_url: flags.webhook,
                scrape_options: scrapeFields(flags),
              }),
              flags,
              {
                max_depth: '--max-depth',
                max_pages: '--max-pages',
                include_paths: '--include-path',
                exclude_paths: '--exclude-path',
                sitemap: '--sitemap',
                webhook_url: '--webhook',
                ...pageFlagNames('scrape_options.'),
              },
            ),
          true,
        ),
    );

/** The URLs of the arguments and of `--file` (one a line, `-` for stdin; blank lines and `#` comments skipped). */
export function urlList(args: string[], file: string | undefined): string[] {
  const text = file === undefined ? '' : readFileSync(file === '-' ? 0 : file, 'utf8');
  return [
    ...args,
    ...text
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith('#')),
  ];
}

export const batchCommand = () =>
  runOptions(apiCommand('batch', 'Scrape many URLs as one job, with progress; print or save every page'))
    .argument('[urls...]', 'the pages')
    .option('--file <file>', 'read URLs from a file, one a line (- for stdin)')
    .addHelpText('after', '\nExample:\n  bun run cli batch --file urls.txt --format markdown --out-dir pages')
    .action((urls: string[], flags: RunFlags & { file?: string }) =>
      withApi(
        flags,
        (api) =>
          run(api, 'batch', defined({ urls: urlList(urls, flags.file), webhook_url: flags.webhook, ...scrapeFields(flags) }), flags, {
            urls: '<urls>',
            webhook_url: '--webhook',
            ...pageFlagNames(),
          }),
        true,
      ),
    );
