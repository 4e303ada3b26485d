/**
 * End to end: the text formats through POST /v1/scrape on real-looking pages — markdown without
 * tracking junk, text, links, rawHtml, the `json` format's `extraction` object, the `llm` text,
 * `attributes` with its 400s — and their documentation in /openapi.json.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.ts';
import { startTrawlServer, type TestServer } from '../helpers/trawl-server.ts';

const PRODUCT = `<!doctype html><html lang="en"><head>
<title>Trailhead 40 backpack | Ridge Outfitters</title>
<meta property="og:title" content="Trailhead 40 backpack">
<meta property="og:image" content="/img/trailhead-40.jpg">
<script type="application/ld+json">{"@type":"Product","name":"Trailhead 40 backpack","description":"A 40 litre pack for long day hikes."}</script>
</head><body>
<header><a href="/"><img src="/logo.svg" alt="Ridge Outfitters"></a><nav><a href="/packs?utm_source=nav&amp;utm_medium=menu">Packs</a> <a href="/tents">Tents</a></nav></header>
<main>
  <div class="product" itemscope itemtype="https://schema.org/Product" data-sku="TH-40">
    <h1 itemprop="name">Trailhead 40 backpack</h1>
    <img itemprop="image" src="/img/trailhead-40.jpg" srcset="/img/trailhead-40-2x.jpg 2x" alt="The Trailhead 40 in green">
    <meta itemprop="price" content="129.00">
    <div class="stats"><p>4.8</p><p>Rating</p><p>1,204</p><p>Reviews</p></div>
    <p>A <strong>40 litre</strong> pack for <em>long</em> day hikes. Read the <a href="/guides/fitting?fbclid=abc123&amp;size=m">fitting guide</a> or the <a href="https://reviews.example/trailhead-40?utm_campaign=spring">independent review</a>.</p>
    <table><tr><th>Size</th><th>Torso</th></tr><tr><td>M</td><td>44–49 cm</td></tr><tr><td>L</td><td>49–54 cm</td></tr></table>
    <p><a href="/guides/fitting">Fitting guide</a> (again) · <a href="#reviews">Jump to reviews</a> · <a href="https://social.example/share"></a></p>
    <img src="https://www.facebook.com/tr?id=1&amp;ev=ViewContent" width="1" height="1" alt="">
  </div>
  <div class="product" data-sku="TH-55" hidden><a href="/p/th-55">Trailhead 55</a></div>
</main>
<footer><a href="/privacy">Privacy</a></footer>
</body></html>`;

let site: FixtureSite;
let server: TestServer;

beforeAll(async () => {
  site = startFixtureSite({ '/packs/trailhead-40': PRODUCT });
  server = await startTrawlServer();
});
afterAll(async () => {
  await server.stop();
  await site.stop();
});

const url = () => site.at('/packs/trailhead-40');
const scrape = (body: Record<string, unknown>) => server.post('/v1/scrape', { url: url(), no_cache: true, ...body });

describe('markdown, text, links, rawHtml', () => {
  test('markdown: absolute URLs, images as ![alt](url), no tracking parameters, pixels, empty links or blank runs', async () => {
    const res = await scrape({ formats: ['markdown'], only_main_content: true });
    expect(res.status).toBe(200);
    const md: string = res.body.markdown;
    expect(md).toContain(`![The Trailhead 40 in green](${site.at('/img/trailhead-40.jpg')})`);
    expect(md).toContain(`[fitting guide](${site.at('/guides/fitting?size=m')})`);
    expect(md).toContain('[independent review](https://reviews.example/trailhead-40)');
    expect(md).toContain('| Size | Torso |\n| --- | --- |\n| M | 44–49 cm |');
    for (const junk of ['utm_', 'fbclid', 'facebook.com/tr', '[]', 'social.example']) expect(md).not.toContain(junk);
    expect(md).not.toMatch(/\n{3,}/);
  });

  test('text: headings on their own lines, paragraphs apart; links: the whole page, tracking-free', async () => {
    const res = await scrape({ formats: ['text', 'links'] });
    expect(res.body.text).toContain('Trailhead 40 backpack\n\n');
    expect(res.body.text).toContain('A 40 litre pack for long day hikes. Read the fitting guide or the independent review.');
    expect(res.body.links).toContainEqual({ text: 'Packs', href: site.at('/packs') });
    expect(res.body.links).toContainEqual({ text: 'Privacy', href: site.at('/privacy') });
    expect(JSON.stringify(res.body.links)).not.toMatch(/utm_|fbclid/);
  });

  test('rawHtml: the bytes as received, decoded', async () => {
    const res = await scrape({ formats: ['rawHtml'], only_main_content: true });
    expect(res.body.rawHtml).toBe(PRODUCT);
  });
});

describe('json', () => {
  test("`extraction`: url, metadata, content as markdown and text, word count, the content's links and assets", async () => {
    const res = await scrape({ formats: ['json', 'markdown', 'text'], only_main_content: true });
    expect(res.status).toBe(200);
    const extraction = res.body.extraction;
    expect(Object.keys(extraction).sort()).toEqual(['assets', 'content', 'links', 'metadata', 'url', 'word_count']);
    expect(extraction.url).toBe(url());
    expect(extraction.metadata).toEqual(res.body.metadata);
    expect(extraction.metadata).toMatchObject({
      title: 'Trailhead 40 backpack',
      description: 'A 40 litre pack for long day hikes.',
      image: site.at('/img/trailhead-40.jpg'),
      language: 'en',
    });
    expect(extraction.content).toEqual({ markdown: res.body.markdown, text: res.body.text });
    expect(extraction.word_count).toBe(res.body.metadata.word_count);
    expect(extraction.links).toEqual([
      { text: 'fitting guide', href: site.at('/guides/fitting?size=m') },
      { text: 'independent review', href: 'https://reviews.example/trailhead-40' },
      { text: 'Fitting guide', href: site.at('/guides/fitting') },
      { text: '', href: 'https://social.example/share' },
    ]);
    expect(extraction.assets).toEqual([{ type: 'image', url: site.at('/img/trailhead-40.jpg'), alt: 'The Trailhead 40 in green' }]);
  });
});

describe('llm', () => {
  test('URL and title header, content without images, emphasis or inline URLs, stats merged, links section last', async () => {
    const res = await scrape({ formats: ['llm', 'markdown'], only_main_content: true });
    const llm: string = res.body.llm;
    expect(llm.startsWith(`URL: ${url()}\nTitle: Trailhead 40 backpack\n\n`)).toBe(true);
    expect(llm).toContain('4.8 Rating, 1,204 Reviews');
    expect(llm).toContain('A 40 litre pack for long day hikes. Read the fitting guide or the independent review.');
    expect(llm).toContain('Size | Torso\nM | 44–49 cm');
    expect(
      llm.endsWith(
        'Links:\nfitting guide: /guides/fitting?size=m\nindependent review: https://reviews.example/trailhead-40\nFitting guide: /guides/fitting',
      ),
    ).toBe(true);
    for (const gone of ['![', '**', '](', '| --- |', 'Jump to reviews:']) expect(llm).not.toContain(gone);
    expect(llm.length).toBeLessThan(res.body.markdown.length);
  });
});

describe('attributes', () => {
  test('values per {selector, attribute} from the page as served; URL attributes absolute', async () => {
    const res = await scrape({
      formats: ['attributes'],
      only_main_content: true,
      attribute_selectors: [
        { selector: '.product', attribute: 'data-sku' },
        { selector: '[itemprop=price]', attribute: 'content' },
        { selector: 'nav a', attribute: 'href' },
        { selector: '.product img', attribute: 'srcset' },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.attributes).toEqual([
      { selector: '.product', attribute: 'data-sku', values: ['TH-40', 'TH-55'] },
      { selector: '[itemprop=price]', attribute: 'content', values: ['129.00'] },
      { selector: 'nav a', attribute: 'href', values: [site.at('/packs?utm_source=nav&utm_medium=menu'), site.at('/tents')] },
      { selector: '.product img', attribute: 'srcset', values: [`${site.at('/img/trailhead-40-2x.jpg')} 2x`] },
    ]);
  });

  test('400 without attribute_selectors or with a selector that does not parse', async () => {
    const missing = await scrape({ formats: ['markdown', 'attributes'] });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: 'Format "attributes" requires attribute_selectors: a list of {selector, attribute}' });
    const bad = await scrape({
      formats: ['attributes'],
      attribute_selectors: [
        { selector: 'a', attribute: 'href' },
        { selector: '>', attribute: 'id' },
      ],
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'Invalid field attribute_selectors[1]: invalid CSS selector ">"' });
    const shape = await scrape({ formats: ['attributes'], attribute_selectors: [{ selector: 'a' }] });
    expect(shape.status).toBe(400);
    expect(shape.body.error).toContain('attribute_selectors[0].attribute');
  });
});

test('an option of a format not requested is ignored with a warning saying so (query, attribute_selectors, extract)', async () => {
  const res = await scrape({
    formats: ['markdown'],
    query: 'What does it weigh?',
    attribute_selectors: [{ selector: 'h1', attribute: 'id' }],
    extract: { prompt: 'the price' },
  });
  expect(res.status).toBe(200);
  expect(res.body.markdown).toContain('Trailhead');
  for (const gone of ['query_answer', 'attributes', 'extract']) expect(res.body[gone]).toBeUndefined();
  expect(res.body.warnings).toEqual(
    expect.arrayContaining([
      'format.query: query is used only with the "query" format, which was not requested: it was ignored',
      'format.attributes: attribute_selectors is used only with the "attributes" format, which was not requested: it was ignored',
      'format.extract: extract is used only with the "extract" format, which was not requested: it was ignored',
    ]),
  );
  // Asked with its format, the option is used and nothing is said.
  const used = await scrape({ formats: ['attributes'], attribute_selectors: [{ selector: 'h1', attribute: 'id' }] });
  expect(used.body.warnings ?? []).not.toContainEqual(expect.stringContaining('was not requested'));
});

test('every text format at once, from the response cache the second time', async () => {
  const body = {
    url: url(),
    formats: ['markdown', 'text', 'links', 'rawHtml', 'json', 'llm', 'attributes'],
    attribute_selectors: [{ selector: 'h1', attribute: 'itemprop' }],
  };
  const first = await server.post('/v1/scrape', body);
  expect(first.status).toBe(200);
  expect(Object.keys(first.body).sort()).toEqual([
    'attributes',
    'extraction',
    'links',
    'llm',
    'markdown',
    'metadata',
    'rawHtml',
    'text',
    'url',
  ]);
  const second = await server.post('/v1/scrape', body);
  expect(second.headers.get('x-trawl-cache')).toBe('hit');
  expect(second.body).toEqual(first.body);
});

test('OpenAPI documents the shapes of extraction, llm and attributes', async () => {
  const { body } = await server.get('/openapi.json');
  const schemas = body.components.schemas;
  expect(schemas.ScrapeResult.properties.extraction).toEqual({ $ref: '#/components/schemas/Extraction' });
  expect(schemas.Extraction.required).toEqual(['url', 'metadata', 'content', 'word_count', 'links', 'assets']);
  expect(schemas.Asset.properties.type.enum).toEqual(['image', 'video', 'audio']);
  expect(schemas.ScrapeResult.properties.llm.description).toContain('Links:');
  expect(schemas.ScrapeResult.properties.attributes.items).toEqual({ $ref: '#/components/schemas/AttributeValues' });
  expect(body.paths['/v1/scrape'].post.responses[400].description).toContain('attribute_selectors');
});
