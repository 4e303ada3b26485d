/**
 * Plain-text pages as a user meets them: a `.txt` file or a text/plain answer scrapes to its text
 * (line breaks kept, laid-out blocks preformatted, `line_count` and `charset` in the metadata)
 * instead of a 422 "Unsupported content type"; a server error sent as plain text is the page
 * with its status code, so a crawl retries it as it retries any 5xx page; a CSV served as
 * text/plain is still a table; markdown (an llms.txt served as text/plain, a .md file) comes back
 * as written, not with every `#`, `*` and `[` escaped.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.ts';
import { startTrawlServer, type TestServer } from '../helpers/trawl-server.ts';

const NOTES = 'Harbour notes\nsecond line\n\nPort      High   Low\nLeith     09:12  15:30\n';
let site: FixtureSite;
let trawl: TestServer;
let flaky = 0;

beforeAll(async () => {
  const plain = (body: string, status = 200) => ({ body, status, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  site = startFixtureSite({
    '/robots.txt': plain('User-agent: *\nAllow: /\n'),
    '/notes.txt': plain(NOTES),
    '/down': plain('Service Unavailable', 503),
    '/start': '<html><body><p>Start</p><a href="/flaky">flaky</a></body></html>',
    // Down once (a plain-text 503), then up.
    '/flaky': () =>
      flaky++ === 0
        ? new Response('Service Unavailable', { status: 503, headers: { 'content-type': 'text/plain' } })
        : new Response('<html><body><p>Back up.</p></body></html>', { headers: { 'content-type': 'text/html' } }),
    '/table.csv': plain('port,high\nLeith,09:12\n'),
    '/llms.txt': plain(
      '# Harbour API\n\n> Tides and berths.\n\n- [Tides](https://harbour.test/tides.md): daily tables\n- [Berths](https://harbour.test/berths.md)\n',
    ),
    '/README.md': { body: 'Setup\n=====\n\nRun *this* once.\n', headers: { 'content-type': 'application/octet-stream' } },
  });
  trawl = await startTrawlServer({ overrides: { jobs: { pollIntervalMs: 50, retryBaseMs: 50, retryMaxMs: 100 } } });
});
afterAll(async () => {
  await trawl.stop();
  await site.stop();
});

test('a text file scrapes to its text: line breaks kept, the aligned table preformatted', async () => {
  const answer = await trawl.post('/v1/scrape', { url: site.at('/notes.txt'), formats: ['markdown', 'text'] });
  expect(answer.status).toBe(200);
  expect(answer.body.markdown).toBe('Harbour notes  \nsecond line\n\n```\nPort      High   Low\nLeith     09:12  15:30\n```');
  expect(answer.body.metadata).toMatchObject({ title: 'notes.txt', line_count: 5, charset: 'utf-8', status_code: 200 });
});

test('a server error sent as plain text is the page with its status code, not an unsupported type', async () => {
  const answer = await trawl.post('/v1/scrape', { url: site.at('/down') });
  expect(answer.status).toBe(200);
  expect(answer.body.metadata.status_code).toBe(503);
  expect(answer.body.markdown).toBe('Service Unavailable');
});

test('a crawl retries a page that answered a plain-text 503 and gets it once it is back', async () => {
  const created = await trawl.post('/v1/crawl', { url: site.at('/start'), max_pages: 5 });
  expect(created.status).toBe(202);
  let status: { body: { status: string; data: Array<{ url: string; status: string; markdown?: string }> } };
  for (let i = 0; ; i++) {
    status = await trawl.get(`/v1/crawl/${created.body.id}`);
    if (status.body.status !== 'scraping' && status.body.status !== 'queued') break;
    if (i > 300) throw new Error('the crawl did not finish');
    await Bun.sleep(50);
  }
  expect(status.body.status).toBe('completed');
  const page = status.body.data.find((p) => p.url.endsWith('/flaky'));
  expect(page).toMatchObject({ status: 'completed' });
  expect(flaky).toBe(2);
});

test('a CSV served as text/plain is still a table', async () => {
  const answer = await trawl.post('/v1/scrape', { url: site.at('/table.csv') });
  expect(answer.status).toBe(200);
  expect(answer.body.markdown).toContain('| port | high |');
  expect(answer.body.metadata).toMatchObject({ row_count: 1, delimiter: ',' });
});

test('markdown served as text/plain (llms.txt) or as a .md file comes back as markdown, not escaped text', async () => {
  const llms = await trawl.post('/v1/scrape', { url: site.at('/llms.txt'), formats: ['markdown', 'links'] });
  expect(llms.status).toBe(200);
  expect(llms.body.markdown).toBe(
    '# Harbour API\n\n> Tides and berths.\n\n- [Tides](https://harbour.test/tides.md): daily tables\n- [Berths](https://harbour.test/berths.md)',
  );
  expect(llms.body.links.map((l: { href: string }) => l.href)).toEqual(['https://harbour.test/tides.md', 'https://harbour.test/berths.md']);
  expect(llms.body.metadata).toMatchObject({ title: 'Harbour API', markup: 'markdown' });
  const readme = await trawl.post('/v1/scrape', { url: site.at('/README.md') });
  // Emphasis in Trawl's markdown style (underscores), the heading as an ATX heading.
  expect(readme.body.markdown).toBe('# Setup\n\nRun _this_ once.');
});
