/**
 * End to end: POST /v1/brand on fixture sites — a palette named in custom properties with a
 * stylesheet, manifest, web fonts and JSON-LD logo; a dark site whose colours are only in its
 * rules; a page whose colours only the rendered page shows (real Chromium); tone and personality
 * only with a model.
 */
import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from 'bun:test';
import { startTrawlServer, type TestServer } from '../helpers/trawl-server.ts';
import type { FixtureSite } from '../helpers/fixture-site.ts';
import { startBrandSite } from '../fixtures/brand-site/site.ts';
import { OPENAI_TEST_KEY, startOpenAiServer, type OpenAiServer } from '../servers/openai.ts';

setDefaultTimeout(60_000);

let site: FixtureSite;
let plain: TestServer;
let rendering: TestServer;
let openai: OpenAiServer;

beforeAll(async () => {
  site = startBrandSite();
  openai = startOpenAiServer({
    answer: () => JSON.stringify({ tone: 'confident and plain', personality: ['practical', 'precise', 'friendly'] }),
  });
  [plain, rendering] = await Promise.all([
    startTrawlServer({ overrides: { brand: { browser: false } } }),
    startTrawlServer({
      overrides: {
        storage: { cacheTtlSeconds: 0 },
        plugins: { llm: { openai: { model: 'gpt-4o-mini', apiKey: OPENAI_TEST_KEY, baseUrl: `${openai.url}/v1` } } },
      },
    }),
  ]);
});
afterAll(async () => {
  await Promise.all([plain.stop(), rendering.stop()]);
  await Promise.all([site.stop(), openai.stop()]);
});

describe('POST /v1/brand', () => {
  test('a palette named in custom properties, a manifest, web fonts and a JSON-LD logo', async () => {
    const res = await plain.post('/v1/brand', { url: site.at('/brand/acme/') });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      url: site.at('/brand/acme/'),
      name: 'Acme Analytics',
      logo: {
        url: site.at('/brand/acme/logo.svg'),
        source: 'json-ld',
        alternatives: [
          { url: site.at('/brand/acme/wordmark.png'), source: 'header' },
          { url: site.at('/brand/acme/icon-512.png'), source: 'manifest', width: 512 },
          { url: site.at('/brand/acme/icon-192.png'), source: 'manifest', width: 192 },
          { url: site.at('/brand/acme/touch-180.png'), source: 'apple-touch-icon', width: 180 },
        ],
      },
      favicon: site.at('/brand/acme/favicon-32.png'),
      colors: { primary: '#0a66c2', secondary: '#10b77f', accent: '#f97316', background: '#ffffff', text: '#1f2937', link: '#2563eb' },
      color_sources: {
        primary: 'css-variable',
        secondary: 'css-variable',
        accent: 'css-variable',
        background: 'css-variable',
        text: 'css-variable',
        link: 'css-variable',
      },
      color_scheme: 'light',
      fonts: [
        { family: 'Playfair Display', role: 'heading', source: 'css-variable' },
        { family: 'Inter', role: 'body', source: 'stylesheet' },
        { family: 'JetBrains Mono', role: 'code', source: 'stylesheet' },
      ],
      images: {
        og_image: site.at('/brand/acme/og.png'),
        logo: site.at('/brand/acme/logo.svg'),
        favicon: site.at('/brand/acme/favicon-32.png'),
      },
      socials: { github: 'https://github.com/acme-analytics', linkedin: 'https://linkedin.com/company/acme-analytics' },
      rendered: false,
      not_found: [],
    });
    // The web-font stylesheet is not fetched: its address names its families.
    expect(site.hits.filter((path) => path.endsWith('.css') || path.endsWith('.webmanifest'))).toEqual([
      '/brand/acme/styles.css',
      '/brand/acme/site.webmanifest',
    ]);
  });

  test('a dark site with its colours only in rules: page, links, buttons, the most used colour', async () => {
    const res = await plain.post('/v1/brand', { url: site.at('/brand/night/') });
    expect(res.status).toBe(200);
    // The button is primary; the colour used most after it (tag text and badge borders) secondary; the link colour accent.
    expect(res.body.colors).toEqual({
      primary: '#a855f7',
      secondary: '#22c55e',
      accent: '#38bdf8',
      background: '#0b1120',
      text: '#e2e8f0',
      link: '#38bdf8',
    });
    expect(res.body.color_sources.primary).toBe('stylesheet');
    expect(res.body.color_scheme).toBe('dark');
    expect(res.body.fonts).toEqual([
      { family: 'Space Grotesk', role: 'heading', source: 'stylesheet' },
      { family: 'IBM Plex Sans', role: 'body', source: 'stylesheet' },
    ]);
    expect(res.body.name).toBe('Nightowl');
    expect(res.body.logo).toBeNull();
    // No icon declared and none at /favicon.ico: no favicon is named (a guess is only answered once it was checked).
    expect(res.body.favicon).toBeNull();
    expect(res.body.not_found).toEqual(['logo', 'favicon', 'fonts.code']);
    expect(res.body.tone).toBeUndefined();
  });

  test('rendered in the browser: colours painted by style attributes and scripts, weighted by area; tone with a model', async () => {
    const res = await rendering.post('/v1/brand', { url: site.at('/brand/painted/') });
    expect(res.status).toBe(200);
    expect(res.body.rendered).toBe(true);
    expect(res.body.colors).toMatchObject({ primary: '#d33682', secondary: '#268bd2', background: '#fdf6e3', link: '#859900' });
    expect(res.body.color_sources).toMatchObject({
      primary: 'computed',
      secondary: 'computed',
      background: 'computed',
      link: 'computed',
      text: 'computed',
    });
    expect(res.body.fonts).toContainEqual({ family: 'Georgia', role: 'heading', source: 'computed' });
    expect(res.body).toMatchObject({
      tone: 'confident and plain',
      personality: ['practical', 'precise', 'friendly'],
      provider: 'llm.openai',
    });
  });

  test('invalid input is a 400; an unreachable page a 422', async () => {
    expect((await plain.post('/v1/brand', {})).body).toEqual({ error: 'Missing required field: url' });
    expect((await plain.post('/v1/brand', { url: site.at('/brand/acme/'), colors: true })).status).toBe(400);
    expect((await plain.post('/v1/brand', { url: 'http://127.0.0.1:9/' })).status).toBe(422);
  });
});
