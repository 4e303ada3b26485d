/**
 * The MCP server end to end, driven by the SDK's own client: over Streamable HTTP at /mcp (bearer
 * keys like the API: a missing or wrong key is refused) and over stdio (`bun cli/main.ts mcp` as a
 * child process). On both, the tools are listed with JSON Schemas and every tool is called against
 * a fixture site, a SearXNG and an OpenAI-compatible test server; errors come back as tool errors
 * with the API's message.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { MetricsToken } from '../../core/metrics.ts';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.ts';
import { startTrawlServer, type TestServer } from '../helpers/trawl-server.ts';
import { OPENAI_TEST_KEY, startOpenAiServer, type OpenAiServer } from '../servers/openai.ts';
import { startSearxngServer, type SearxngServer } from '../servers/searxng.ts';

const KEY = 'mcp-test-key';
const page = (title: string, body: string, links = '') =>
  `<!doctype html><html lang="en"><head><title>${title}</title></head><body><article><h1>${title}</h1><p>${body}</p>${links}</article></body></html>`;

let site: FixtureSite;
let searx: SearxngServer;
let openai: OpenAiServer;
let trawl: TestServer;

/** The plugin settings both transports' servers use. */
const settings = () => ({
  plugins: {
    search: { searxng: { url: searx.url } },
    llm: { openai: { model: 'gpt-4o-mini', apiKey: OPENAI_TEST_KEY, baseUrl: `${openai.url}/v1` } },
  },
  crawl: { perHostDelayMs: 0 },
});

beforeAll(async () => {
  site = startFixtureSite({
    '/': page('Harbour home', 'The harbour opens at dawn and the ferries leave on the hour.', '<a href="/tides">Tides</a> <a href="/ferries">Ferries</a>'),
    '/tides': page('Tide table', 'High tide is at 06:12 and again at 18:40; the bridge opens for tall ships at high tide.'),
    '/ferries': page('Ferry times', 'Ferries cross to the island every hour from six in the morning until ten at night.'),
    '/robots.txt': { body: 'User-agent: *\nAllow: /\n', headers: { 'content-type': 'text/plain' } },
  });
  searx = startSearxngServer({ results: () => [{ url: site.at('/tides'), title: 'Tide table', snippet: 'High tide times' }] });
  openai = startOpenAiServer({ answer: () => JSON.stringify({ high_tide: '06:12' }) });
  trawl = await startTrawlServer({ overrides: { apiKey: KEY, ...settings() } });
});

afterAll(async () => {
  await trawl.stop();
  await Promise.all([site.stop(), searx.stop(), openai.stop()]);
});

const TOOLS = ['batch_scrape', 'batch_status', 'crawl', 'crawl_status', 'extract', 'map', 'scrape', 'search', 'summarize', 'watch_create', 'watch_list'];
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
  const { tools } = await client.listTools();
  expect(tools.map((tool) => tool.name).sort()).toEqual(TOOLS);
  for (const tool of tools) expect(tool.inputSchema.type).toBe('object');
  const scrapeTool = tools.find((tool) => tool.name === 'scrape')!;
  expect(scrapeTool.inputSchema.required).toEqual(['url']);
  expect(Object.keys(scrapeTool.inputSchema.properties!)).toContain('only_main_content');
  expect(scrapeTool.outputSchema?.type).toBe('object');

  const scraped = (await client.callTool({ name: 'scrape', arguments: { url: site.at('/tides'), formats: ['markdown', 'links'] } })) as CallToolResult;
  expect(scraped.isError).toBeFalsy();
  expect(text(scraped)).toContain('# Tide table');
  expect(text(scraped)).toContain('High tide is at 06:12');
  expect((scraped.structuredContent as any).metadata.title).toBe('Tide table');

  const mapped = (await client.callTool({ name: 'map', arguments: { url: site.at('/') } })) as CallToolResult;
  expect((mapped.structuredContent as any).links.map((l: any) => l.url)).toEqual(expect.arrayContaining([site.at('/tides'), site.at('/ferries')]));
  expect(text(mapped)).toContain(site.at('/ferries'));

  const searched = (await client.callTool({ name: 'search', arguments: { query: 'high tide', num_results: 1 } })) as CallToolResult;
  expect((searched.structuredContent as any).results[0].url).toBe(site.at('/tides'));
  expect(text(searched)).toContain('High tide is at 06:12');

  const extracted = (await client.callTool({ name: 'extract', arguments: { url: site.at('/tides'), schema: { type: 'object', properties: { high_tide: { type: 'string' } }, required: ['high_tide'] } } })) as CallToolResult;
  expect((extracted.structuredContent as any).data).toEqual({ high_tide: '06:12' });
  expect(text(extracted)).toContain('"high_tide": "06:12"');

  const summarized = (await client.callTool({ name: 'summarize', arguments: { url: site.at('/ferries'), mode: 'extractive' } })) as CallToolResult;
  expect((summarized.structuredContent as any).method).toBe('extractive');
  expect(text(summarized)).toContain('Ferries cross to the island');

  const crawl = (await client.callTool({ name: 'crawl', arguments: { url: site.at('/'), max_pages: 3 } })) as CallToolResult;
  const crawlId = (crawl.structuredContent as any).id as string;
  expect(text(crawl)).toContain(`Crawl ${crawlId} started`);
  const crawled = await finished(client, 'crawl_status', crawlId);
  expect((crawled.structuredContent as any).status).toBe('completed');
  expect((crawled.structuredContent as any).completed).toBe(3);
  expect(text(crawled)).toContain('Ferries cross to the island');

  const batch = (await client.callTool({ name: 'batch_scrape', arguments: { urls: [site.at('/tides'), site.at('/ferries')] } })) as CallToolResult;
  const batched = await finished(client, 'batch_status', (batch.structuredContent as any).id);
  expect((batched.structuredContent as any).completed).toBe(2);

  const watch = (await client.callTool({ name: 'watch_create', arguments: { url: site.at('/ferries'), interval_minutes: 60 } })) as CallToolResult;
  const watchId = (watch.structuredContent as any).id as string;
  expect(text(watch)).toBe(`Watching ${site.at('/ferries')} every 60 minutes (watch ${watchId}).`);
  const listed = (await client.callTool({ name: 'watch_list', arguments: {} })) as CallToolResult;
  expect((listed.structuredContent as any).watches.map((w: any) => w.id)).toContain(watchId);
  expect(text(listed)).toContain(`id ${watchId}: every 60 min, active`);
  const badWatch = (await client.callTool({ name: 'watch_create', arguments: { url: site.at('/'), interval_minutes: 0 } })) as CallToolResult;
  expect(badWatch.isError).toBe(true);
  expect(text(badWatch)).toStartWith('Invalid field interval_minutes');

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
  await client.connect(new StreamableHTTPClientTransport(new URL(`${trawl.url}/mcp`), { requestInit: { headers: key ? { authorization: `Bearer ${key}` } : {} } }));
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

  test('a missing or wrong key is refused with the API\'s 401', async () => {
    for (const key of [undefined, 'not-the-key']) {
      await expect(httpClient(key)).rejects.toMatchObject({ code: 401, message: expect.stringContaining('Invalid or missing API key') });
    }
    const raw = await trawl.post('/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { accept: 'application/json, text/event-stream' });
    expect([raw.status, raw.body]).toEqual([401, { error: 'Invalid or missing API key' }]);
  });

  test('a GET is 405: the endpoint keeps no sessions', async () => {
    const res = await trawl.get('/mcp', { authorization: `Bearer ${KEY}` });
    expect(res.status).toBe(405);
  });
});

describe('MCP over stdio (bun run cli mcp)', () => {
  test('lists the tools and calls each one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'trawl-mcp-'));
    const config = settings();
    writeFileSync(join(dir, 'trawl.toml'), [
      '[plugins.search.searxng]', `url = "${searx.url}"`,
      '[plugins.llm.openai]', `model = "gpt-4o-mini"`, `apiKey = "${OPENAI_TEST_KEY}"`, `baseUrl = "${config.plugins.llm.openai.baseUrl}"`,
      '[crawl]', 'perHostDelayMs = 0',
    ].join('\n'));
    const client = new Client({ name: 'trawl-test', version: '1.0.0' });
    await client.connect(new StdioClientTransport({
      command: 'bun',
      args: ['cli/main.ts', 'mcp'],
      cwd: new URL('../..', import.meta.url).pathname,
      env: { ...(process.env as Record<string, string>), TRAWL_CONFIG: join(dir, 'trawl.toml'), TRAWL_FETCH_ALLOW_PRIVATE_NETWORK: 'true', TRAWL_DATA_DIR: ':memory:', TRAWL_LOG_LEVEL: 'silent' },
      stderr: 'pipe',
    }));
    try {
      await exercise(client);
    } finally {
      await client.close();
    }
  }, 30_000);
});
