/**
 * The MCP server end to end, driven by the SDK's own client: over Streamable HTTP at /mcp (bearer
 * keys like the API: a missing or wrong key is refused) and over stdio (`bun /path/cli/main.ts mcp`
 * as a child process started elsewhere than the repository, as a desktop client does). On both,
 * the tools are listed with complete input schemas in under 30 KB and every tool is called against
 * a fixture site, a SearXNG, an OpenAI-compatible and an X API test server; errors come back as
 * tool errors with the API's message. In cloud mode the stdio server acts for the workspace of the
 * key it is given, and refuses to start without one.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { MetricsToken } from '../../core/metrics.ts';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.ts';
import { ADMIN_KEY, bearer, cloudTenants } from '../helpers/cloud-tenants.ts';
import { startTrawlServer, type TestServer } from '../helpers/trawl-server.ts';
import { OPENAI_TEST_KEY, startOpenAiServer, type OpenAiServer } from '../servers/openai.ts';
import { startSearxngServer, type SearxngServer } from '../servers/searxng.ts';
import { startXApiServer, X_TEST_TOKEN, type XApiServer } from '../servers/x-api.ts';

const KEY = 'mcp-test-key';
const page = (title: string, body: string, links = '') =>
  `<!doctype html><html lang="en"><head><title>${title}</title></head><body><article><h1>${title}</h1><p>${body}</p>${links}</article></body></html>`;

let site: FixtureSite;
let searx: SearxngServer;
let openai: OpenAiServer;
let xApi: XApiServer;
let trawl: TestServer;

const CLI = new URL('../../cli/main.ts', import.meta.url).pathname;
const COMPANY = `<!doctype html><html lang="en"><head><title>Harbour Ferries</title><meta name="theme-color" content="#0a3d62">
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Organization","name":"Harbour Ferries Ltd","description":"Ferries to the island every hour.","email":"hello@harbour.test","sameAs":["https://www.linkedin.com/company/harbour-ferries"]}</script>
</head><body><header><h1>Harbour Ferries</h1></header><main><p>Ferries to the island every hour.</p><p>Write to <a href="mailto:hello@harbour.test">hello@harbour.test</a>.</p></main></body></html>`;
const APP =
  '<!doctype html><html><head><title>Tide app</title></head><body><div id="app"></div><script>fetch("/api/tides?day=1").then((r) => r.json());</script></body></html>';

/** The plugin settings both transports' servers use. */
const settings = () => ({
  plugins: {
    search: { searxng: { url: searx.url } },
    llm: { openai: { model: 'gpt-4o-mini', apiKey: OPENAI_TEST_KEY, baseUrl: `${openai.url}/v1` } },
  },
  crawl: { perHostDelayMs: 0 },
  brand: { browser: false },
});
/** The social source: the X API test server. */
const socialEnv = () => ({ TRAWL_PLUGINS_SOCIAL_X_BEARER_TOKEN: X_TEST_TOKEN, TRAWL_PLUGINS_SOCIAL_X_BASE_URL: xApi.url });

beforeAll(async () => {
  site = startFixtureSite({
    '/': page(
      'Harbour home',
      'The harbour opens at dawn and the ferries leave on the hour.',
      '<a href="/tides">Tides</a> <a href="/ferries">Ferries</a>',
    ),
    '/tides': page('Tide table', 'High tide is at 06:12 and again at 18:40; the bridge opens for tall ships at high tide.'),
    '/ferries': page('Ferry times', 'Ferries cross to the island every hour from six in the morning until ten at night.'),
    '/company': COMPANY,
    '/app': APP,
    '/robots.txt': { body: 'User-agent: *\nAllow: /\n', headers: { 'content-type': 'text/plain' } },
  });
  xApi = startXApiServer();
  xApi.users.push({ id: '42', username: 'harbour', name: 'Harbour' }, { id: '43', username: 'fleet', name: 'Fleet', followers_count: 7 });
  xApi.followers.set('42', ['43']);
  searx = startSearxngServer({ results: () => [{ url: site.at('/tides'), title: 'Tide table', snippet: 'High tide times' }] });
  // The lead's reading of a company (asked with its own schema), else the extraction.
  openai = startOpenAiServer({
    answer: ({ schema }) =>
      JSON.stringify(
        (schema?.properties as Record<string, unknown> | undefined)?.industry
          ? { summary: 'A ferry operator.', industry: 'Ferries' }
          : { high_tide: '06:12' },
      ),
  });
  trawl = await startTrawlServer({ overrides: { apiKey: KEY, ...settings() }, env: socialEnv() });
});

afterAll(async () => {
  await trawl.stop();
  await Promise.all([site.stop(), searx.stop(), openai.stop()]);
  xApi.stop();
});

const TOOLS = [
  'batch_scrape',
  'batch_status',
  'brand',
  'crawl',
  'crawl_status',
  'diff',
  'endpoints',
  'extract',
  'lead',
  'lead_batch',
  'lead_batch_status',
  'map',
  'scrape',
  'search',
  'social_audience',
  'social_monitor_create',
  'social_monitor_list',
  'summarize',
  'watch_create',
  'watch_list',
];
const text = (result: CallToolResult) => result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');

/** Calls a status tool until the run has finished. */
async function finished(client: Client, tool: string, id: string): Promise<CallToolResult> {
  for (;;) {
    const result = (await client.callTool({ name: tool, arguments: { id } })) as CallToolResult;
    const status = (result.structuredContent as { status?: string } | undefined)?.status;
    if (result.isError || ['completed', 'failed', 'cancelled'].includes(status!)) return result;
    await Bun.sleep(50);
  }
}

/** Every tool through one connected client. */
async function exercise(client: Client) {
  const toolList = await client.listTools();
  const { tools } = toolList;
  expect(tools.map((tool) => tool.name).sort()).toEqual(TOOLS);
  // Lean enough for an agent's context (about 8k tokens): no output schemas, the input schemas whole.
  expect(JSON.stringify(toolList).length).toBeLessThan(32_000);
  for (const tool of tools) expect([tool.inputSchema.type, tool.outputSchema]).toEqual(['object', undefined]);
  const scrapeTool = tools.find((tool) => tool.name === 'scrape')!;
  expect(scrapeTool.inputSchema.required).toEqual(['url']);
  expect(Object.keys(scrapeTool.inputSchema.properties!)).toContain('only_main_content');
  const crawlOptions = (tools.find((tool) => tool.name === 'crawl')!.inputSchema.properties as any).scrape_options;
  expect(crawlOptions.properties.headers.propertyNames.pattern).toBeString();
  expect(crawlOptions.properties.extract.properties.prompt.maxLength).toBe(8000);
  const socialTool = tools.find((tool) => tool.name === 'social_monitor_create')!;
  expect((socialTool.inputSchema.properties as any).kind.enum).toEqual(['profile', 'search', 'list', 'replies']);

  const scraped = (await client.callTool({
    name: 'scrape',
    arguments: { url: site.at('/tides'), formats: ['markdown', 'links'] },
  })) as CallToolResult;
  expect(scraped.isError).toBeFalsy();
  expect(text(scraped)).toContain('# Tide table');
  expect(text(scraped)).toContain('High tide is at 06:12');
  expect((scraped.structuredContent as any).metadata.title).toBe('Tide table');

  const mapped = (await client.callTool({ name: 'map', arguments: { url: site.at('/') } })) as CallToolResult;
  expect((mapped.structuredContent as any).links.map((l: any) => l.url)).toEqual(
    expect.arrayContaining([site.at('/tides'), site.at('/ferries')]),
  );
  expect(text(mapped)).toContain(site.at('/ferries'));

  const searched = (await client.callTool({ name: 'search', arguments: { query: 'high tide', num_results: 1 } })) as CallToolResult;
  expect((searched.structuredContent as any).results[0].url).toBe(site.at('/tides'));
  expect(text(searched)).toContain('High tide is at 06:12');

  const extracted = (await client.callTool({
    name: 'extract',
    arguments: {
      url: site.at('/tides'),
      schema: { type: 'object', properties: { high_tide: { type: 'string' } }, required: ['high_tide'] },
    },
  })) as CallToolResult;
  expect((extracted.structuredContent as any).data).toEqual({ high_tide: '06:12' });
  expect(text(extracted)).toContain('"high_tide": "06:12"');

  const summarized = (await client.callTool({
    name: 'summarize',
    arguments: { url: site.at('/ferries'), mode: 'extractive' },
  })) as CallToolResult;
  expect((summarized.structuredContent as any).method).toBe('extractive');
  expect(text(summarized)).toContain('Ferries cross to the island');

  const crawl = (await client.callTool({ name: 'crawl', arguments: { url: site.at('/'), max_pages: 3 } })) as CallToolResult;
  const crawlId = (crawl.structuredContent as any).id as string;
  expect(text(crawl)).toContain(`Crawl ${crawlId} started`);
  const crawled = await finished(client, 'crawl_status', crawlId);
  expect((crawled.structuredContent as any).status).toBe('completed');
  expect((crawled.structuredContent as any).completed).toBe(3);
  expect(text(crawled)).toContain('Ferries cross to the island');

  const batch = (await client.callTool({
    name: 'batch_scrape',
    arguments: { urls: [site.at('/tides'), site.at('/ferries')] },
  })) as CallToolResult;
  const batched = await finished(client, 'batch_status', (batch.structuredContent as any).id);
  expect((batched.structuredContent as any).completed).toBe(2);

  const watch = (await client.callTool({
    name: 'watch_create',
    arguments: { url: site.at('/ferries'), interval_minutes: 60 },
  })) as CallToolResult;
  const watchId = (watch.structuredContent as any).id as string;
  expect(text(watch)).toBe(`Watching ${site.at('/ferries')} every 60 minutes (watch ${watchId}).`);
  const listed = (await client.callTool({ name: 'watch_list', arguments: {} })) as CallToolResult;
  expect((listed.structuredContent as any).watches.map((w: any) => w.id)).toContain(watchId);
  expect(text(listed)).toContain(`id ${watchId}: every 60 min, active`);
  const badWatch = (await client.callTool({
    name: 'watch_create',
    arguments: { url: site.at('/'), interval_minutes: 0 },
  })) as CallToolResult;
  expect(badWatch.isError).toBe(true);
  expect(text(badWatch)).toStartWith('Invalid field interval_minutes');

  const diffed = (await client.callTool({
    name: 'diff',
    arguments: { url: site.at('/tides'), previous: 'High tide is at 05:00 and again at 17:30.' },
  })) as CallToolResult;
  expect((diffed.structuredContent as any).status).toBe('changed');
  expect(text(diffed)).toStartWith(`${site.at('/tides')}: changed.`);
  expect(text(diffed)).toContain('+High tide is at 06:12 and again at 18:40; the bridge opens for tall ships at high tide.');

  const lead = (await client.callTool({ name: 'lead', arguments: { url: site.at('/company') } })) as CallToolResult;
  expect((lead.structuredContent as any).company.name).toBe('Harbour Ferries Ltd');
  expect(text(lead)).toContain('# Harbour Ferries Ltd');
  expect(text(lead)).toContain(
    'A ferry operator.\n\n- Industry: Ferries\n- E-mails: hello@harbour.test\n- Profiles: linkedin https://linkedin.com/company/harbour-ferries',
  );
  const leadBatch = (await client.callTool({
    name: 'lead_batch',
    arguments: { urls: [site.at('/company'), 'http://127.0.0.1:1/'] },
  })) as CallToolResult;
  const leadBatchId = (leadBatch.structuredContent as any).id as string;
  expect(text(leadBatch)).toContain(`Lead batch ${leadBatchId} started`);
  const leads = await finished(client, 'lead_batch_status', leadBatchId);
  expect([(leads.structuredContent as any).completed, (leads.structuredContent as any).failed]).toEqual([1, 1]);
  expect(text(leads)).toContain('## Harbour Ferries Ltd');
  expect(text(leads)).toContain('## http://127.0.0.1:1/\n\nFailed: Failed to fetch URL');

  const brand = (await client.callTool({ name: 'brand', arguments: { url: site.at('/company') } })) as CallToolResult;
  expect((brand.structuredContent as any).name).toBe('Harbour Ferries Ltd');
  expect(text(brand)).toContain('# Harbour Ferries Ltd');
  expect(text(brand)).toContain('#0a3d62');

  const endpoints = (await client.callTool({ name: 'endpoints', arguments: { url: site.at('/app') } })) as CallToolResult;
  expect((endpoints.structuredContent as any).endpoints.map((e: any) => e.value)).toContain('/api/tides');
  expect(text(endpoints)).toContain('- `/api/tides` (relative path, first party, in inline)');

  const monitor = (await client.callTool({
    name: 'social_monitor_create',
    arguments: { kind: 'profile', target: '@harbour', interval_minutes: 60 },
  })) as CallToolResult;
  const monitorId = (monitor.structuredContent as any).id as string;
  expect(text(monitor)).toBe(`Monitoring profile harbour every 60 minutes (monitor ${monitorId}).`);
  const monitors = (await client.callTool({ name: 'social_monitor_list', arguments: { limit: 10 } })) as CallToolResult;
  expect((monitors.structuredContent as any).monitors.map((m: any) => m.id)).toContain(monitorId);
  expect(text(monitors)).toContain(`- harbour (profile harbour), id ${monitorId}: every 60 min, active`);
  const audience = (await client.callTool({ name: 'social_audience', arguments: { handle: 'harbour', max_pages: 1 } })) as CallToolResult;
  expect((audience.structuredContent as any).users.map((u: any) => u.screen_name)).toEqual(['fleet']);
  expect(text(audience)).toContain('1 followers of account 42');
  expect(text(audience)).toContain('- @fleet (Fleet), 7 followers, id 43');

  // Errors: the API's messages, as tool errors.
  const invalid = (await client.callTool({ name: 'scrape', arguments: {} })) as CallToolResult;
  expect([invalid.isError, text(invalid)]).toEqual([true, 'Missing required field: url']);
  const unknown = (await client.callTool({ name: 'crawl_status', arguments: { id: 'no-such-crawl' } })) as CallToolResult;
  expect([unknown.isError, text(unknown)]).toEqual([true, 'Crawl not found: no-such-crawl']);
  const unfetchable = (await client.callTool({ name: 'scrape', arguments: { url: 'http://127.0.0.1:1/' } })) as CallToolResult;
  expect(unfetchable.isError).toBe(true);
  expect(text(unfetchable)).toStartWith('Failed to fetch URL:');
}

const httpClient = async (key?: string) => {
  const client = new Client({ name: 'trawl-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${trawl.url}/mcp`), {
      requestInit: { headers: key ? { authorization: `Bearer ${key}` } : {} },
    }),
  );
  return client;
};

describe('MCP over Streamable HTTP (/mcp)', () => {
  test('lists the tools and calls each one', async () => {
    const client = await httpClient(KEY);
    try {
      await exercise(client);
    } finally {
      await client.close();
    }
    // Each call is counted by tool and outcome.
    const calls = (await trawl.trawl.container.resolve(MetricsToken).mcpCalls.get()).values;
    const count = (tool: string, outcome: string) => calls.find((v) => v.labels.tool === tool && v.labels.outcome === outcome)?.value;
    expect([count('scrape', 'ok'), count('scrape', 'error'), count('crawl_status', 'error')]).toEqual([1, 2, 1]);
  });

  test("a missing or wrong key is refused with the API's 401", async () => {
    for (const key of [undefined, 'not-the-key']) {
      await expect(httpClient(key)).rejects.toMatchObject({ code: 401, message: expect.stringContaining('Invalid or missing API key') });
    }
    const raw = await trawl.post(
      '/mcp',
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { accept: 'application/json, text/event-stream' },
    );
    expect([raw.status, raw.body]).toEqual([401, { error: 'Invalid or missing API key' }]);
  });

  test('a GET is 405: the endpoint keeps no sessions', async () => {
    const res = await trawl.get('/mcp', { authorization: `Bearer ${KEY}` });
    expect(res.status).toBe(405);
  });
});

/** `bun /path/to/cli/main.ts mcp …` started in `cwd` (not the repository), as the documented client config does. */
function stdioTransport(cwd: string, env: Record<string, string>, args: string[] = []) {
  return new StdioClientTransport({
    command: 'bun',
    args: [CLI, 'mcp', ...args],
    cwd,
    env: { ...(process.env as Record<string, string>), TRAWL_FETCH_ALLOW_PRIVATE_NETWORK: 'true', TRAWL_LOG_LEVEL: 'silent', ...env },
    stderr: 'pipe',
  });
}

/** `bun cli/main.ts mcp …` that should refuse to start: its exit code and what it printed. */
async function refusedStart(env: Record<string, string>, args: string[] = []) {
  const child = Bun.spawn(['bun', CLI, 'mcp', ...args], {
    env: { ...process.env, TRAWL_LOG_LEVEL: 'silent', ...env },
    stdin: 'pipe',
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const [code, stderr] = await Promise.all([child.exited, new Response(child.stderr).text()]);
  return { code, stderr: stderr.trim() };
}

describe('MCP over stdio (bun cli/main.ts mcp)', () => {
  test('lists the tools and calls each one, started outside the repository with its data directory set', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'trawl-mcp-'));
    const config = settings();
    writeFileSync(
      join(dir, 'trawl.toml'),
      [
        '[plugins.search.searxng]',
        `url = "${searx.url}"`,
        '[plugins.llm.openai]',
        `model = "gpt-4o-mini"`,
        `apiKey = "${OPENAI_TEST_KEY}"`,
        `baseUrl = "${config.plugins.llm.openai.baseUrl}"`,
        '[crawl]',
        'perHostDelayMs = 0',
        '[brand]',
        'browser = false',
      ].join('\n'),
    );
    const client = new Client({ name: 'trawl-test', version: '1.0.0' });
    await client.connect(
      stdioTransport(dir, { TRAWL_CONFIG: join(dir, 'trawl.toml'), TRAWL_DATA_DIR: join(dir, 'state'), ...socialEnv() }),
    );
    try {
      await exercise(client);
    } finally {
      await client.close();
      expect(await Bun.file(join(dir, 'state', 'trawl.db')).exists()).toBe(true);
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  test('the documented `bun run --cwd <trawl> --silent cli mcp` form starts from any directory', async () => {
    const child = Bun.spawn(['bun', 'run', '--cwd', new URL('../..', import.meta.url).pathname, '--silent', 'cli', 'mcp', '--help'], {
      cwd: tmpdir(),
      stdout: 'pipe',
      stderr: 'pipe',
    });
    const [code, stdout, stderr] = await Promise.all([child.exited, new Response(child.stdout).text(), new Response(child.stderr).text()]);
    // Started from another directory, the command is found and answers its help like every CLI command.
    expect([code, stderr]).toEqual([0, '']);
    expect(stdout).toContain('--api-key <key>');
    expect(stdout).toContain('bun run --cwd /path/to/trawl --silent cli mcp');
  });

  test('cloud mode: acts for the workspace of --api-key or TRAWL_API_KEY, and will not start without a valid key', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'trawl-mcp-cloud-'));
    const cloud = { mode: 'cloud', adminKey: ADMIN_KEY, storage: { dataDir: dir } };
    const env = { TRAWL_MODE: 'cloud', TRAWL_DATA_DIR: dir };
    const server = await startTrawlServer({ overrides: cloud });
    const tenants = cloudTenants(() => server);
    const [first, second] = [await tenants.tenant('starter', 100), await tenants.tenant('starter', 100)];
    await server.stop();
    try {
      // The first through the flag, the second through the variable: each scrape is the key's workspace's.
      for (const [path, args, keyEnv] of [
        ['/tides', ['--api-key', first.key], {}],
        ['/ferries', [], { TRAWL_API_KEY: second.key }],
      ] as const) {
        const client = new Client({ name: 'trawl-test', version: '1.0.0' });
        await client.connect(stdioTransport(dir, { ...env, ...keyEnv }, [...args]));
        try {
          const scraped = (await client.callTool({ name: 'scrape', arguments: { url: site.at(path) } })) as CallToolResult;
          expect([scraped.isError, (scraped.structuredContent as any)?.metadata.title]).toEqual([
            undefined,
            path === '/tides' ? 'Tide table' : 'Ferry times',
          ]);
        } finally {
          await client.close();
        }
      }
      expect(await refusedStart(env)).toEqual({
        code: 2,
        stderr: 'Cloud mode: the MCP server acts for one workspace; pass --api-key KEY or set TRAWL_API_KEY',
      });
      expect(await refusedStart(env, ['--api-key', 'trawl_not-a-key'])).toEqual({
        code: 2,
        stderr: 'Invalid or missing API key (--api-key / TRAWL_API_KEY)',
      });
      const badFlag = await refusedStart(env, ['--no-such-flag']);
      expect([badFlag.code, badFlag.stderr.trim().split('\n')]).toEqual([2, [expect.stringContaining("unknown option '--no-such-flag'")]]);
    } finally {
      const reopened = await startTrawlServer({ overrides: cloud });
      try {
        // Each workspace paid for its own scrape (one credit) and holds only its own result.
        const tenantsAgain = cloudTenants(() => reopened);
        expect([await tenantsAgain.balance(first.id), await tenantsAgain.balance(second.id)]).toEqual([99, 99]);
        for (const [tenant, path] of [
          [first, '/tides'],
          [second, '/ferries'],
        ] as const) {
          const results = await reopened.get('/v1/results', bearer(tenant.key));
          expect(results.body.results.map((r: any) => r.url)).toEqual([site.at(path)]);
        }
      } finally {
        await reopened.stop();
        rmSync(dir, { recursive: true, force: true });
      }
    }
  }, 60_000);
});
