/**
 * The world every SDK's tests run in: a real Trawl server in cloud mode (so results, usage and the
 * credit and plan answers exist) with a fixture site (its `/slow` page takes 1.5 s, for
 * cancelling), a search provider and a language model on 127.0.0.1 (and the social network's API,
 * with an account of 2,500 followers), five workspaces (one with credits, one without, one lapsed,
 * one allowed a single request a minute, and one whose keys and feed token the account tests
 * change), and a front that answers every other request with 429 + `Retry-After: 1` before passing
 * the next one through, for the SDKs' retry tests, and one that cuts event streams after their
 * first event, for their resume tests. Handed to the Python and Go tests as JSON in
 * TRAWL_SDK_TEST_ENV. Also the toolchain check and the subprocess runner the language and packaging
 * tests share.
 */
import { startFixtureSite, type FixtureSite, type Route } from '../test/helpers/fixture-site.ts';
import { startTrawlServer, type TestServer } from '../test/helpers/trawl-server.ts';
import type { Conversation } from '../test/servers/llm-answers.ts';
import { OPENAI_TEST_KEY, startOpenAiServer, type OpenAiServer } from '../test/servers/openai.ts';
import { startSearxngServer, type SearxngServer } from '../test/servers/searxng.ts';
import { startXApiServer, X_TEST_TOKEN } from '../test/servers/x-api.ts';

const ADMIN_KEY = 'admin-key-for-sdk-tests-0123456789';

export interface SdkTestEnv {
  url: string;
  /** Answers 429 (Retry-After: 1) to every other request and passes the rest to `url`. */
  flakyUrl: string;
  /** Passes event streams from `url` through cut after their first event, as a dropped connection. */
  cuttingUrl: string;
  site: string;
  /**
   * `account` is a workspace of its own for the key and feed-token tests: they change its keys and
   * spend its per-minute budget, not main's.
   */
  keys: { main: string; broke: string; lapsed: string; limited: string; account: string };
}

export interface SdkHarness {
  env: SdkTestEnv;
  stop(): Promise<void>;
}

/** A missing toolchain fails the test with the command that installs it, never skips it. */
export function need(command: string, install: string): void {
  if (!Bun.which(command)) throw new Error(`${command} is not installed: ${install} (.ci/run does this)`);
}

/** Runs a command to its end; a non-zero exit throws with both outputs, which are returned otherwise. */
export async function exec(command: string[], cwd: string, env: Record<string, string | undefined> = {}, hint = ''): Promise<string> {
  const proc = Bun.spawn(command, { cwd, stdout: 'pipe', stderr: 'pipe', env: { ...process.env, ...env } });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`${command.join(' ')} exited ${code}${hint ? ` (${hint})` : ''}\n${out}\n${err}`);
  return out + err;
}

const page = (title: string, links: string[]) =>
  `<!doctype html><html><head><title>${title}</title></head><body><article><h1>${title}</h1>` +
  `<p>${title} is a page about the sea, which rises and falls twice a day. Contact: hello@example.com</p>` +
  links.map((l) => `<a href="${l}">${l}</a>`).join(' ') +
  '</article></body></html>';

/** A model that fills any asked-for schema with plain values, and answers text otherwise. */
function fillSchema(schema: any): unknown {
  switch (schema?.type) {
    case 'object':
      return Object.fromEntries(Object.entries<any>(schema.properties ?? {}).map(([k, v]) => [k, fillSchema(v)]));
    case 'array':
      return [];
    case 'number':
    case 'integer':
      return 1;
    case 'boolean':
      return true;
    default:
      return schema?.enum?.[0] ?? 'Tides';
  }
}
const answer = (conversation: Conversation) =>
  conversation.schema ? JSON.stringify(fillSchema(conversation.schema)) : 'The sea rises and falls twice a day.';

export async function startSdkHarness(): Promise<SdkHarness> {
  const routes: Record<string, Route> = {
    '/': page('Home', ['/a', '/b', '/c']),
    '/slow': { body: page('Slow', []), delayMs: 1500 },
    '/api': `<!doctype html><html><head><title>App</title><script>fetch('/api/v2/orders').then((r) => r.json());</script></head><body>App</body></html>`,
  };
  for (const name of ['a', 'b', 'c']) routes[`/${name}`] = page(`Page ${name}`, ['/']);
  const site: FixtureSite = startFixtureSite(routes);
  const searx: SearxngServer = startSearxngServer({ results: () => [{ url: site.at('/a'), title: 'Page a', snippet: 'the sea' }] });
  const openai: OpenAiServer = startOpenAiServer({ answer });
  // The social network: @harbour with 2,500 followers, three audience pages of 1,000 at most.
  const xApi = startXApiServer();
  xApi.users.push({ id: '42', username: 'harbour', name: 'Harbour' });
  for (let n = 0; n < 2500; n++) xApi.users.push({ id: String(5000 + n), username: `sailor${n}`, name: `Sailor ${n}` });
  xApi.followers.set(
    '42',
    xApi.users.slice(1).map((u) => u.id),
  );
  const server: TestServer = await startTrawlServer({
    env: { TRAWL_PLUGINS_SOCIAL_X_BEARER_TOKEN: X_TEST_TOKEN, TRAWL_PLUGINS_SOCIAL_X_BASE_URL: xApi.url },
    overrides: {
      // Brand without the browser: the SDK tests judge the client, and Chromium would cost seconds per call.
      mode: 'cloud',
      adminKey: ADMIN_KEY,
      jobs: { pollIntervalMs: 20 },
      brand: { browser: false },
      plugins: {
        search: { searxng: { url: searx.url } },
        llm: { openai: { model: 'gpt-4o-mini', apiKey: OPENAI_TEST_KEY, baseUrl: `${openai.url}/v1` } },
      },
    },
  });
  const admin = { authorization: `Bearer ${ADMIN_KEY}` };
  const workspace = async (credits: number, patch?: Record<string, unknown>) => {
    const created = await server.post('/admin/workspaces', { name: 'sdk', plan: 'starter', credits }, admin);
    if (patch) await server.call(`/admin/workspaces/${created.body.id}`, { method: 'PATCH', headers: admin, body: patch });
    const key = await server.post(`/admin/workspaces/${created.body.id}/keys`, '', admin);
    if (key.status !== 201) throw new Error(`workspace key: ${JSON.stringify(key.body)}`);
    return key.body.key as string;
  };
  const keys = {
    main: await workspace(100_000),
    broke: await workspace(0),
    lapsed: await workspace(100, { status: 'lapsed' }),
    limited: await workspace(100, { rate_limit: 1 }),
    account: await workspace(100),
  };
  let requests = 0;
  const flaky = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(req) {
      if (requests++ % 2 === 0)
        return Response.json({ error: 'Rate limit exceeded: try again' }, { status: 429, headers: { 'retry-after': '1' } });
      const url = new URL(req.url);
      const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : await req.arrayBuffer();
      return fetch(server.url + url.pathname + url.search, { method: req.method, headers: req.headers, body });
    },
  });
  const cutting = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(req) {
      const url = new URL(req.url);
      const upstream = await fetch(server.url + url.pathname + url.search, { headers: req.headers });
      const text = await upstream.text();
      if (!upstream.ok) return new Response(text, { status: upstream.status, headers: upstream.headers });
      return new Response(text.slice(0, text.indexOf('\n\n', text.indexOf('event:')) + 2), {
        headers: { 'content-type': 'text/event-stream' },
      });
    },
  });
  return {
    env: {
      url: server.url,
      flakyUrl: `http://127.0.0.1:${flaky.port}`,
      cuttingUrl: `http://127.0.0.1:${cutting.port}`,
      site: site.url,
      keys,
    },
    async stop() {
      await Promise.all([flaky.stop(true), cutting.stop(true)]);
      await server.stop();
      await Promise.all([site.stop(), searx.stop(), openai.stop(), xApi.stop()]);
    },
  };
}
