/**
 * POST /v1/extract, POST /v1/summarize, the `query` format, /health and the CLI end to end: a real
 * Trawl server, a fixture site, and protocol-faithful language-model servers (test/servers/) whose
 * "model" reads the page text it is sent and answers from it. Covered: a given schema, a schema
 * generated from the prompt, a long page split into parts and merged, map-reduce summaries,
 * extractive summaries and answers without a model, a model that fails, the 400s, 422s and the 503
 * that says what to configure, every HTTP provider and the local runtime.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCliCommand } from '../helpers/cli.ts';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.ts';
import { writeTinyLlama } from '../../plugins/llm/llama-cpp/tiny-gguf.ts';
import { startTrawlServer, type TestServer } from '../helpers/trawl-server.ts';
import { GEMINI_TEST_KEY, startGeminiServer, type GeminiServer } from '../servers/gemini.ts';
import { lastUser, type Conversation } from '../servers/llm-answers.ts';
import { startOllamaServer, type OllamaServer } from '../servers/ollama.ts';
import { OPENAI_TEST_KEY, openaiError, startOpenAiServer, type OpenAiServer } from '../servers/openai.ts';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/llm/${name}.html`, import.meta.url), 'utf8');
const PRODUCTS = 120;
const catalogue = `<!doctype html><html lang="en"><head><title>Spring catalogue</title></head><body><main><h1>Spring catalogue</h1><p>Edition: Spring 2026, valid until 31 May.</p>${Array.from(
  { length: PRODUCTS },
  (_, i) =>
    `<p>Product ${i + 1}: Copper kettle number ${i + 1} costs €${(10 + i / 4).toFixed(2)}. It holds ${(1 + i / 100).toFixed(2)} litres and comes with a two-year guarantee, free delivery and a recipe booklet.</p>`,
).join('')}<p>Contact: sales@example.com for trade prices.</p></main></body></html>`;

/** The material after "Page…:" / "Page text:" in the last user message. */
const material = (c: Conversation) => lastUser(c).replace(/^[\s\S]*?\n(?=URL: )/, '');
const sentences = (text: string) =>
  text
    .split('\n')
    .filter((line) => /^[A-Z][^:]*\.$/.test(line.trim()) || /\. /.test(line))
    .flatMap((line) => line.split(/(?<=\.) /));

/**
 * A stand-in for a model that reads: it answers each kind of request the features make (field
 * list, extraction, summary, page answer) from the text it was sent, as a model would, in JSON.
 */
function readingModel(c: Conversation): string {
  const properties = Object.keys((c.schema?.properties ?? {}) as object);
  const text = material(c);
  if (properties.includes('fields')) {
    return JSON.stringify({
      fields: [
        { name: 'Bridge name', kind: 'string', description: 'name of the bridge', item_fields: [] },
        { name: 'opened', kind: 'string', description: 'when it opened', item_fields: [] },
        { name: 'span metres', kind: 'number', description: 'span of the arch', item_fields: [] },
      ],
    });
  }
  if (properties.includes('summary')) {
    const first = sentences(text.replace(/^URL: .*\nTitle: .*\n/, ''))[0] ?? '';
    return JSON.stringify({
      summary: lastUser(c).includes('summaries of its consecutive parts') ? `Combined: ${text.split('\n\n').slice(1).join(' | ')}` : first,
    });
  }
  if (properties.includes('answer')) {
    const question = /Question: (.+)$/.exec(lastUser(c))?.[1] ?? '';
    const words = question.toLowerCase().match(/[a-z]{4,}/g) ?? [];
    const best = sentences(text)
      .map((s) => [s, words.filter((w) => s.toLowerCase().includes(w.replace(/ed$/, ''))).length] as const)
      .sort((a, b) => b[1] - a[1])[0];
    return JSON.stringify({ answer: `According to the page: ${best?.[0] ?? 'nothing'}`, found: Boolean(best) });
  }
  if (properties.includes('products')) {
    const products = [...text.matchAll(/Product \d+: (.+?) costs €([\d.]+)\./g)].map((m) => ({ name: m[1], price: Number(m[2]) }));
    return JSON.stringify({
      edition: /Edition: ([^,]+),/.exec(text)?.[1] ?? null,
      contact: /Contact: (\S+)/.exec(text)?.[1] ?? null,
      products,
    });
  }
  return JSON.stringify({
    bridge_name: /^Title: (.+)$/m.exec(text)?.[1] ?? null,
    opened: /opened on ([^.]+?) by/.exec(text)?.[1] ?? null,
    span_metres: Number(/spans (\d+) metres/.exec(text)?.[1]) || null,
  });
}

const bridgeSchema = {
  type: 'object',
  properties: { bridge_name: { type: 'string' }, opened: { type: 'string' }, span_metres: { type: 'number' } },
  required: ['bridge_name', 'opened', 'span_metres'],
};
const catalogueSchema = {
  type: 'object',
  properties: {
    edition: { type: ['string', 'null'] },
    contact: { type: ['string', 'null'] },
    products: {
      type: 'array',
      items: { type: 'object', properties: { name: { type: 'string' }, price: { type: 'number' } }, required: ['name', 'price'] },
    },
  },
  required: ['edition', 'contact', 'products'],
};

let site: FixtureSite;
let openai: OpenAiServer;
let trawl: TestServer;
let bare: TestServer;

beforeAll(async () => {
  site = startFixtureSite({
    '/bridge': { body: fixture('bridge') },
    '/museum': { body: fixture('museum') },
    '/catalogue': { body: catalogue },
    '/empty': { body: '<html><body></body></html>' },
  });
  openai = startOpenAiServer({ answer: readingModel });
  // A small context and answer limit, so the catalogue (about 5,000 tokens) takes several parts.
  trawl = await startTrawlServer({
    overrides: {
      plugins: { llm: { openai: { model: 'gpt-4o-mini', apiKey: OPENAI_TEST_KEY, baseUrl: `${openai.url}/v1`, contextTokens: 2500 } } },
      llm: { maxOutputTokens: 512 },
    },
  });
  bare = await startTrawlServer();
});
afterAll(async () => {
  await Promise.all([trawl.stop(), bare.stop()]);
  await Promise.all([site.stop(), openai.stop()]);
});
beforeEach(() => {
  openai.conversations.length = 0;
  openai.answer = readingModel;
});

describe('POST /v1/extract', () => {
  test("with a schema: the page's llm text to the model, JSON matching the schema back", async () => {
    const res = await trawl.post('/v1/extract', {
      url: site.at('/bridge'),
      prompt: "The bridge's name, opening date and span",
      schema: bridgeSchema,
      no_cache: true,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      url: site.at('/bridge'),
      data: { bridge_name: 'The Harbour Bridge', opened: '19 March 1932', span_metres: 503 },
      model: 'gpt-4o-mini-2024-07-18',
      provider: 'llm.openai',
      usage: { input_tokens: expect.any(Number), output_tokens: expect.any(Number) },
    });
    const [call] = openai.conversations;
    expect(lastUser(call!)).toStartWith(
      `Instruction: The bridge's name, opening date and span\n\nPage:\nURL: ${site.at('/bridge')}\nTitle: The Harbour Bridge\n\n`,
    );
    expect(lastUser(call!)).not.toContain('<article>');
    expect(res.headers.get('x-trawl-cache')).toBe('miss');
  });

  test('with only a prompt: a schema is generated first and returned', async () => {
    const res = await trawl.post('/v1/extract', { url: site.at('/bridge'), prompt: 'When did the bridge open and how long is it?' });
    expect(res.status).toBe(200);
    expect(res.body.generated_schema).toEqual({
      type: 'object',
      properties: {
        bridge_name: { type: ['string', 'null'], description: 'name of the bridge' },
        opened: { type: ['string', 'null'], description: 'when it opened' },
        span_metres: { type: ['number', 'null'], description: 'span of the arch' },
      },
      required: ['bridge_name', 'opened', 'span_metres'],
      additionalProperties: false,
    });
    expect(res.body.data).toEqual({ bridge_name: 'The Harbour Bridge', opened: '19 March 1932', span_metres: 503 });
    expect(openai.conversations.map((c) => Object.keys(c.schema!.properties as object))).toEqual([
      ['fields'],
      ['bridge_name', 'opened', 'span_metres'],
    ]);
  });

  test('a long page is split into parts within the context and their answers merged', async () => {
    const res = await trawl.post('/v1/extract', {
      url: site.at('/catalogue'),
      prompt: 'Every product with its price',
      schema: catalogueSchema,
    });
    expect(res.status).toBe(200);
    const parts = openai.conversations.length;
    expect(parts).toBeGreaterThanOrEqual(3);
    for (const [i, c] of openai.conversations.entries()) {
      expect(lastUser(c)).toContain(`(part ${i + 1} of ${parts}: extract what this part holds)`);
      expect(material(c)).toStartWith(`URL: ${site.at('/catalogue')}\nTitle: Spring catalogue\n\n`);
    }
    // Arrays joined in page order; other values from the first part that has one (the edition from the
    // first part, the contact from the last).
    expect(res.body.data.edition).toBe('Spring 2026');
    expect(res.body.data.contact).toBe('sales@example.com');
    expect(res.body.data.products).toHaveLength(PRODUCTS);
    expect(res.body.data.products.map((p: { name: string }) => p.name)).toEqual(
      Array.from({ length: PRODUCTS }, (_, i) => `Copper kettle number ${i + 1}`),
    );
    expect(res.body.usage.input_tokens).toBeGreaterThan(4000);
  });

  test('an answer that does not match twice is a 422 naming the problem', async () => {
    openai.answer = () => '{"bridge_name":"X","opened":1932,"span_metres":"long"}';
    const res = await trawl.post('/v1/extract', { url: site.at('/bridge'), schema: bridgeSchema });
    expect(res.status).toBe(422);
    expect(res.body.error).toBe(
      "The model's answer does not match the schema: at /opened: must be string; at /span_metres: must be number (llm.openai, gpt-4o-mini-2024-07-18; after one retry)",
    );
    expect(openai.conversations).toHaveLength(2);
  });

  test('a provider failure is a 502 naming the provider', async () => {
    openai.script(() => openaiError(503, 'The engine is currently overloaded, please try again later.', 'server_error'));
    const res = await trawl.post('/v1/extract', { url: site.at('/bridge'), schema: bridgeSchema });
    expect([res.status, res.body.error]).toEqual([
      502,
      'llm.openai: HTTP 503: The engine is currently overloaded, please try again later.',
    ]);
  });

  test.each([
    ['no url', {}, 'Missing required field: url'],
    ['neither prompt nor schema', { url: 'https://example.com/' }, 'Missing required field: prompt (or schema)'],
    ['an empty prompt', { url: 'https://example.com/', prompt: '  ' }, 'Invalid field prompt: must not be empty'],
    [
      'a schema that is no object',
      { url: 'https://example.com/', schema: [] },
      'Invalid field schema: Invalid input: expected record, received array',
    ],
    [
      'an invalid schema',
      { url: 'https://example.com/', schema: { type: 'object', properties: 'x' } },
      'Invalid field schema: not a valid JSON Schema: at /properties: must be object',
    ],
    [
      'a schema over llm.maxSchemaBytes',
      { url: 'https://example.com/', schema: { type: 'object', description: 'x'.repeat(40_000) } },
      'Invalid field schema: 40034 bytes, at most 32768 (llm.maxSchemaBytes)',
    ],
    ['an internal field name', { url: 'https://example.com/', prompt: 'x', onlyMainContent: true }, 'Unknown field: onlyMainContent'],
  ])('%s is a 400 before anything is fetched', async (_, body, message) => {
    const res = await trawl.post('/v1/extract', body);
    expect([res.status, res.body.error]).toEqual([400, message]);
    expect(openai.conversations).toHaveLength(0);
  });

  test('a page with no text is a 422', async () => {
    const res = await trawl.post('/v1/extract', { url: site.at('/empty'), prompt: 'anything' });
    expect([res.status, res.body.error]).toEqual([422, 'The page has no text to extract from']);
  });
});

describe('POST /v1/summarize', () => {
  test("with a model: one call for a page that fits, the page's formats beside it", async () => {
    const res = await trawl.post('/v1/summarize', { url: site.at('/bridge'), length: 'short', formats: ['links'] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      url: site.at('/bridge'),
      summary: 'The Harbour Bridge is a steel arch bridge across the bay.',
      method: 'llm',
      length: 'short',
      model: 'gpt-4o-mini-2024-07-18',
      provider: 'llm.openai',
      metadata: { title: 'The Harbour Bridge' },
    });
    // (every link of the page, as the links format always lists them: main content does not narrow it)
    expect(res.body.links.map((l: { href: string }) => new URL(l.href).pathname)).toEqual(['/', '/visit', '/shop', '/privacy']);
    expect(res.body.llm).toBeUndefined();
    expect(openai.conversations).toHaveLength(1);
    expect(lastUser(openai.conversations[0]!)).toStartWith('Summarize this page in about 60 words.');
  });

  test('a long page: map (each part) then reduce (the part summaries)', async () => {
    const res = await trawl.post('/v1/summarize', { url: site.at('/catalogue'), length: 'long' });
    expect(res.status).toBe(200);
    const calls = openai.conversations.length;
    expect(calls).toBeGreaterThanOrEqual(4);
    const parts = calls - 1;
    for (let i = 0; i < parts; i++) expect(lastUser(openai.conversations[i]!)).toStartWith(`This is part ${i + 1} of ${parts} of a page.`);
    expect(lastUser(openai.conversations[parts]!)).toStartWith(
      'Summarize this page in about 250 words. You are given summaries of its consecutive parts.',
    );
    expect(res.body.summary).toStartWith('Combined: Product 1: Copper kettle number 1 costs €10.00.');
    expect(res.body.summary.split(' | ')).toHaveLength(parts);
  });

  test("extractive on request, even with a model: the page's central sentences, in page order, no model call", async () => {
    const res = await trawl.post('/v1/summarize', { url: site.at('/bridge'), mode: 'extractive', length: 'short' });
    expect(res.status).toBe(200);
    expect(res.body.method).toBe('extractive');
    expect(res.body.model).toBeUndefined();
    expect(openai.conversations).toHaveLength(0);
    const picked = res.body.summary as string;
    expect(readFileSync(new URL('../fixtures/llm/bridge.html', import.meta.url), 'utf8').replace(/\s+/g, ' ')).toContain(
      picked.split('. ')[0]!,
    );
    expect(picked).not.toContain('gift shop');
  });
});

describe('the query format', () => {
  test('with a model: its answer from the whole page, with the passages', async () => {
    const res = await trawl.post('/v1/scrape', { url: site.at('/bridge'), formats: ['query'], query: 'When was the bridge opened?' });
    expect(res.status).toBe(200);
    expect(res.body.query_method).toBe('llm');
    expect(res.body.query_answer).toBe('According to the page: The bridge was opened on 19 March 1932 by the state premier.');
    expect(res.body.query_passages[0].text).toContain('19 March 1932');
    expect(lastUser(openai.conversations[0]!)).toContain(`URL: ${site.at('/bridge')}\n\nPage text:\n`);
    expect(lastUser(openai.conversations[0]!)).toContain('Visitors can climb the arch of the bridge');
    expect(lastUser(openai.conversations[0]!)).toEndWith('Question: When was the bridge opened?');
  });

  test('when the model fails the extractive answer stands, with a warning', async () => {
    openai.script(() => openaiError(500, 'boom', 'server_error'));
    const res = await trawl.post('/v1/scrape', {
      url: site.at('/museum'),
      formats: ['query'],
      query: 'How much is an adult ticket?',
      no_cache: true,
    });
    expect(res.status).toBe(200);
    expect(res.body.query_method).toBe('extractive');
    expect(res.body.query_answer).toContain('A ticket for adults costs €12.');
    expect(res.body.warnings).toEqual([
      'format.query: The language model could not answer (llm.openai: HTTP 500: boom); the answer is extractive',
    ]);
  });
});

describe('without a model', () => {
  test('extract says what to configure; summarize and query answer extractively', async () => {
    const extract = await bare.post('/v1/extract', { url: site.at('/bridge'), prompt: 'x' });
    expect([extract.status, extract.body.error]).toEqual([
      503,
      'No language model is configured: set plugins.llm.openai.model, or plugins.llm.ollama.model, or plugins.llm.gemini.apiKey, or plugins.llm.llama-cpp.modelPath',
    ]);
    const forced = await bare.post('/v1/summarize', { url: site.at('/bridge'), mode: 'llm' });
    expect(forced.status).toBe(503);
    const summary = await bare.post('/v1/summarize', { url: site.at('/museum') });
    expect(summary.status).toBe(200);
    expect(summary.body.method).toBe('extractive');
    expect(summary.body.summary.split(/(?<=[.!?]) /).length).toBeLessThanOrEqual(6);
    const query = await bare.post('/v1/scrape', { url: site.at('/museum'), formats: ['query', 'markdown'], query: 'Where is the museum?' });
    expect(query.body).toMatchObject({ query_method: 'extractive', query_answer: expect.stringContaining('4 Quay Street') });
    expect(query.body.markdown).toContain('Plan your visit');
  });

  test('the query format needs `query`; /health shows no model', async () => {
    const res = await bare.post('/v1/scrape', { url: site.at('/museum'), formats: ['query'] });
    expect([res.status, res.body.error]).toEqual([400, 'Format "query" needs query: the question to answer from the page']);
    const health = await bare.get('/health');
    expect(health.body.llm.status).toBe('not configured');
    expect(health.body.llm.providers.map((p: { status: string }) => p.status)).toEqual([
      'not configured',
      'not configured',
      'not configured',
      'not configured',
    ]);
  });
});

describe('/health and the OpenAPI document', () => {
  test('the configured provider is asked; the others are listed as not configured', async () => {
    const res = await trawl.get('/health');
    expect(res.body.llm).toEqual({
      status: 'configured',
      provider: 'llm.openai',
      providers: [
        { id: 'llm.openai', configured: true, status: 'ok', model: 'gpt-4o-mini', endpoint: `${openai.url}/v1/chat/completions` },
        { id: 'llm.ollama', configured: false, status: 'not configured' },
        { id: 'llm.gemini', configured: false, status: 'not configured' },
        { id: 'llm.llama-cpp', configured: false, status: 'not configured' },
      ],
    });
  });

  test('the new endpoints and the query fields are documented', async () => {
    const doc = (await trawl.get('/openapi.json')).body;
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/v1/extract', '/v1/summarize']));
    expect(Object.keys(doc.components.schemas.ExtractRequest.properties)).toEqual([
      'url',
      'prompt',
      'schema',
      'only_main_content',
      'no_cache',
      'timeout',
    ]);
    expect(doc.components.schemas.SummarizeRequest.properties.mode.enum).toEqual(['auto', 'llm', 'extractive']);
    expect(JSON.stringify(doc.components.schemas.ScrapeResult)).toContain('query_passages');
  });
});

describe('every provider', () => {
  let ollama: OllamaServer;
  let gemini: GeminiServer;
  let dir: string;
  const servers: TestServer[] = [];
  beforeAll(async () => {
    ollama = startOllamaServer({ answer: readingModel });
    gemini = startGeminiServer({ answer: readingModel });
    dir = mkdtempSync(join(tmpdir(), 'trawl-e2e-gguf-'));
    writeTinyLlama(join(dir, 'tiny.gguf'), { seed: 3 });
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await Promise.all([ollama.stop(), gemini.stop()]);
    rmSync(dir, { recursive: true, force: true });
  });
  const serve = async (llm: Record<string, unknown>, settings: Record<string, unknown> = {}) => {
    const server = await startTrawlServer({ overrides: { plugins: { llm }, llm: settings } });
    servers.push(server);
    return server;
  };

  test.each(['ollama', 'gemini'])('llm.%s: extract, summarize and query', async (name) => {
    const server = await serve(
      name === 'ollama'
        ? { ollama: { model: 'qwen2.5:0.5b', baseUrl: ollama.url } }
        : { gemini: { apiKey: GEMINI_TEST_KEY, baseUrl: gemini.url } },
    );
    const extract = await server.post('/v1/extract', { url: site.at('/bridge'), schema: bridgeSchema });
    expect([extract.status, extract.body.provider, extract.body.data]).toEqual([
      200,
      `llm.${name}`,
      { bridge_name: 'The Harbour Bridge', opened: '19 March 1932', span_metres: 503 },
    ]);
    const summary = await server.post('/v1/summarize', { url: site.at('/bridge') });
    expect([summary.body.method, summary.body.summary]).toEqual(['llm', 'The Harbour Bridge is a steel arch bridge across the bay.']);
    const query = await server.post('/v1/scrape', {
      url: site.at('/bridge'),
      formats: ['query'],
      query: 'How long is the span of the arch?',
    });
    expect([query.body.query_method, query.body.query_answer]).toEqual([
      'llm',
      'According to the page: The arch of the bridge spans 503 metres, and its top stands 134 metres above the water.',
    ]);
    expect((await server.get('/health')).body.llm.providers.find((p: { id: string }) => p.id === `llm.${name}`).status).toBe('ok');
  });

  test('llm.llama-cpp: a GGUF model in process extracts JSON matching the schema; /health shows it loaded', async () => {
    const server = await serve(
      { 'llama-cpp': { modelPath: join(dir, 'tiny.gguf'), threads: 1, contextSize: 4096 } },
      { maxOutputTokens: 256 },
    );
    const schema = {
      type: 'object',
      properties: { open: { type: 'boolean' }, kind: { enum: ['bridge', 'tunnel', 'ferry'] } },
      required: ['open', 'kind'],
    };
    const res = await server.post('/v1/extract', {
      url: site.at('/bridge'),
      prompt: 'Is it open, and what kind of crossing is it?',
      schema,
      only_main_content: true,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      provider: 'llm.llama-cpp',
      model: 'tiny.gguf',
      data: { open: expect.any(Boolean), kind: expect.stringMatching(/^(bridge|tunnel|ferry)$/) },
    });
    const health = (await server.get('/health')).body.llm.providers.find((p: { id: string }) => p.id === 'llm.llama-cpp');
    expect(health).toMatchObject({
      configured: true,
      status: 'ok',
      model: 'tiny.gguf',
      runtime: { state: 'loaded', context_size: 4096, threads: 1, load_ms: expect.any(Number) },
    });
  });
});

describe('the CLI', () => {
  const env = () => ({
    TRAWL_PLUGINS_LLM_OPENAI_MODEL: 'gpt-4o-mini',
    TRAWL_PLUGINS_LLM_OPENAI_API_KEY: OPENAI_TEST_KEY,
    TRAWL_PLUGINS_LLM_OPENAI_BASE_URL: `${openai.url}/v1`,
  });

  test('extract with a schema file prints the /v1 response', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'trawl-cli-'));
    try {
      writeFileSync(join(dir, 'schema.json'), JSON.stringify(bridgeSchema));
      const { stdout, stderr, exitCode } = await runCliCommand(
        ['extract', site.at('/bridge'), '--prompt', 'The bridge facts', '--schema', join(dir, 'schema.json')],
        env(),
      );
      expect([exitCode, stderr]).toEqual([0, '']);
      expect(JSON.parse(stdout)).toMatchObject({
        data: { bridge_name: 'The Harbour Bridge', opened: '19 March 1932', span_metres: 503 },
        provider: 'llm.openai',
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('summarize prints the summary; bad flags and no model are told apart', async () => {
    const summary = await runCliCommand(['summarize', site.at('/bridge'), '--mode', 'extractive', '--length', 'short']);
    expect(summary.exitCode).toBe(0);
    expect(summary.stdout.trim().split(/(?<=\.) /).length).toBeLessThanOrEqual(3);
    const bad = await runCliCommand(['summarize', site.at('/bridge'), '--length', 'huge']);
    expect([bad.exitCode, bad.stderr.trim()]).toEqual([
      2,
      'Invalid field --length: Invalid option: expected one of "short"|"medium"|"long"',
    ]);
    const none = await runCliCommand(['extract', site.at('/bridge'), '--prompt', 'x']);
    expect([none.exitCode, none.stderr.trim()]).toEqual([
      1,
      expect.stringMatching(/^No language model is configured: set plugins\.llm\.openai\.model/),
    ]);
  });
});
