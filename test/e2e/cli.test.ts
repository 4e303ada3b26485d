/**
 * The command line as a user meets it: a crawl of the generated fixture site with its progress on
 * a terminal (a bar with done/total, rate and ETA) and in a pipe (plain lines), `--out-dir`'s file
 * set, a batch, the same commands against a running server (`--api`), and every mistake — an
 * unknown command, a bad flag, a bad environment value — as one line with exit code 2, for the
 * CLI and for `bun start` alike.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HOSTS, startCrawlSite, type CrawlSite } from '../fixtures/crawl-site/site.ts';
import { runBun, runCliCommand, runCliInTerminal } from '../helpers/cli.ts';
import { startTrawlServer, type TestServer } from '../helpers/trawl-server.ts';

// Each case starts Bun processes that boot Trawl; on a busy shared machine that takes seconds.
setDefaultTimeout(90_000);

const PAGES = 12;
let site: CrawlSite;
let env: Record<string, string>;
let dir: string;

beforeAll(async () => {
  // Each page takes a while, so the progress shows the crawl under way, not only its end.
  site = await startCrawlSite({ pages: PAGES, delayMs: 60 });
  env = { TRAWL_FETCH_RESOLVE: JSON.stringify(site.resolve), TRAWL_JOBS_POLL_INTERVAL_MS: '50' };
  dir = mkdtempSync(join(tmpdir(), 'trawl-cli-'));
});
afterAll(async () => {
  await site.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** The file names `--out-dir` gives the site's pages: host and port, then the path. */
const expectedFiles = (extension: string) =>
  site.tree
    .pathsWithin(100)
    .map((path) => `${HOSTS.main}_${site.port}${path === '/' ? '_index' : path.replaceAll('/', '_')}.${extension}`)
    .sort();

describe('crawl with progress', () => {
  test('in a pipe: plain progress lines on stderr, one file per page with --out-dir', async () => {
    const out = join(dir, 'piped');
    const run = await runCliCommand(['crawl', site.url('/'), '--max-pages', '50', '--format', 'text', '--out-dir', out], env);
    expect([
      run.exitCode,
      run.stderr.split('\n').filter((line) => !/^crawl: \d+\/\d+ pages, \d+\.\d\/s, ETA (\?|\d+s|\d+m\d\ds)$/.test(line) && line),
    ]).toEqual([0, []]);
    expect(run.stderr.trim().split('\n').at(-1)).toStartWith(`crawl: ${PAGES}/${PAGES} pages, `);
    expect(readdirSync(out).sort()).toEqual(expectedFiles('txt'));
    // stdout lists the files written; each holds its page's text.
    expect(
      run.stdout
        .trim()
        .split('\n')
        .map((path) => path.slice(out.length + 1))
        .sort(),
    ).toEqual(expectedFiles('txt'));
    const page = readFileSync(join(out, `${HOSTS.main}_${site.port}_blog_page-1.txt`), 'utf8');
    expect(page).toStartWith('Home\n\nArticle 1');
    expect(page).not.toContain('<');
  });

  test('on a terminal: a bar with done/total, rate and ETA, ending at the whole site', async () => {
    const out = join(dir, 'terminal');
    const run = await runCliInTerminal(['crawl', site.url('/'), '--max-pages', '50', '--out-dir', out], env);
    expect(run.exitCode).toBe(0);
    const bars = [...run.output.matchAll(/crawl \[([#-]{24})\] (\d+)\/(\d+) pages \| (\d+\.\d)\/s \| ETA (\?|\d+s|\d+m\d\ds)/g)];
    expect(bars.length).toBeGreaterThan(1);
    const last = bars.at(-1)!;
    expect([last[1], last[2], last[3]]).toEqual(['#'.repeat(24), String(PAGES), String(PAGES)]);
    expect(Number(last[4])).toBeGreaterThan(0);
    // Plain lines are for pipes only.
    expect(run.output).not.toMatch(/crawl: \d+\/\d+ pages,/);
    expect(readdirSync(out).sort()).toEqual(expectedFiles('md'));
  });

  test('batch prints each page under its URL; --no-progress is quiet', async () => {
    const urls = ['/', '/blog/page-1', '/news/page-2'].map((path) => site.url(path));
    const run = await runCliCommand(['batch', ...urls, '--format', 'text', '--no-progress'], env);
    expect([run.exitCode, run.stderr]).toEqual([0, '']);
    const headers = run.stdout.split('\n').filter((line) => line.startsWith('==> '));
    expect(headers.sort()).toEqual(urls.map((url) => `==> ${url} <==`).sort());
    expect(run.stdout).toContain('Article 2');
  });
});

describe('against a running server (--api)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTrawlServer({
      overrides: { apiKey: 'cli-test-key', fetch: { resolve: site.resolve }, jobs: { pollIntervalMs: 50 } },
    });
  });
  afterAll(async () => server.stop());

  test('scrape and crawl go through the server with the key; its refusals name the flags', async () => {
    const api = { TRAWL_API_URL: server.url, TRAWL_API_KEY: 'cli-test-key' };
    const page = await runCliCommand(['scrape', site.url('/blog/page-1'), '--format', 'text'], api);
    expect([page.exitCode, page.stdout]).toEqual([0, expect.stringContaining('Article 1')]);
    const crawled = await runCliCommand(['crawl', site.url('/'), '--max-pages', '3', '--json', '--no-progress'], api);
    expect(crawled.exitCode).toBe(0);
    expect(JSON.parse(crawled.stdout)).toMatchObject({
      status: 'completed',
      completed: 3,
      data: expect.arrayContaining([expect.objectContaining({ url: site.url('/') })]),
    });
    const refused = await runCliCommand(['crawl', site.url('/'), '--max-pages', '0', '--api', server.url, '--api-key', 'cli-test-key']);
    expect([refused.exitCode, refused.stderr]).toEqual([2, 'Invalid field --max-pages: Too small: expected number to be >=1\n']);
    const wrongKey = await runCliCommand(['scrape', site.url('/'), '--api', server.url, '--api-key', 'wrong']);
    expect([wrongKey.exitCode, wrongKey.stderr.trim().split('\n').length]).toEqual([1, 1]);
  });
});

describe('mistakes are one line and exit code 2', () => {
  const oneLine = (run: { exitCode: number; stderr: string; stdout: string }) => [
    run.exitCode,
    run.stdout,
    run.stderr.trimEnd().split('\n').length,
  ];

  test('an unknown command, a bad flag, a bad flag value', async () => {
    const [unknown, badFlag, badValue] = await Promise.all([
      runCliCommand(['crwal', site.url('/')]),
      runCliCommand(['crawl', site.url('/'), '--max-page', '3']),
      runCliCommand(['crawl', site.url('/'), '--max-pages', 'many']),
    ]);
    expect(oneLine(unknown)).toEqual([2, '', 1]);
    expect(unknown.stderr).toBe("error: unknown command 'crwal' (Did you mean crawl?) (see: bun run cli --help)\n");
    expect(oneLine(badFlag)).toEqual([2, '', 1]);
    expect(badFlag.stderr).toStartWith("error: unknown option '--max-page'");
    expect(badFlag.stderr).toContain('(see: bun run cli crawl --help)');
    expect(oneLine(badValue)).toEqual([2, '', 1]);
    expect(badValue.stderr).toContain("argument 'many' is invalid. expected a whole number");
  });

  test('a bad environment value names the variable, not an internal key path or a stack', async () => {
    const run = await runCliCommand(['scrape', site.url('/')], { TRAWL_FETCH_ALLOW_PRIVATE_NETWORK: 'yes' });
    expect(oneLine(run)).toEqual([2, '', 1]);
    expect(run.stderr).toBe(
      'Invalid configuration: TRAWL_FETCH_ALLOW_PRIVATE_NETWORK (fetch.allowPrivateNetwork): expected true or false\n',
    );
  });

  test('help, --version and bun start', async () => {
    const [help, crawlHelp, version, startHelp, startBogus, startBadEnv] = await Promise.all([
      runCliCommand(['--help']),
      runCliCommand(['crawl', '--help']),
      runCliCommand(['--version']),
      runBun('server/main.ts', ['--help']),
      runBun('server/main.ts', ['--bogus']),
      runBun('server/main.ts', [], { TRAWL_SERVER_PORT: 'abc' }),
    ]);
    for (const command of [
      'scrape',
      'crawl',
      'batch',
      'map',
      'search',
      'extract',
      'summarize',
      'watch',
      'lead',
      'brand',
      'endpoints',
      'serve',
      'admin',
      'mcp',
    ]) {
      expect(help.stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
    }
    expect(crawlHelp.exitCode).toBe(0);
    expect(crawlHelp.stdout).toContain('--out-dir <dir>');
    expect(crawlHelp.stdout).toContain('Example');
    const pkg = await Bun.file(new URL('../../package.json', import.meta.url)).json();
    expect(version).toEqual({ exitCode: 0, stdout: `${pkg.version}\n`, stderr: '' });
    expect([startHelp.exitCode, startHelp.stderr]).toEqual([0, '']);
    expect(startHelp.stdout).toStartWith('Usage: bun start [options]');
    expect(startHelp.stdout).toContain('--role <role>');
    expect(oneLine(startBogus)).toEqual([2, '', 1]);
    expect(startBogus.stderr).toBe("error: unknown option '--bogus' (see: bun start --help)\n");
    expect(oneLine(startBadEnv)).toEqual([2, '', 1]);
    expect(startBadEnv.stderr).toBe('Invalid configuration: TRAWL_SERVER_PORT (server.port): expected a number\n');
  });
});
