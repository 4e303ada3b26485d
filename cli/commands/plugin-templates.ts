/**
 * What `new-plugin` writes for each kind it knows: a working plugin that does one small, real
 * thing the author replaces, and its colocated test on the test kit. Each template only uses the
 * plugin kit, the test kit and its kind's shared/ folder (a search provider's status and ranking),
 * so a new plugin starts on the seam the structure test enforces.
 */

export interface PluginNames {
  /** kebab-case, as in config and requests (`word-count`). */
  name: string;
  /** The exported definition (`wordCountFormat`). */
  variable: string;
}

export interface PluginTemplate {
  source(n: PluginNames): string;
  test(n: PluginNames): string;
  /** The plugin's entry in config/default.toml. */
  config(n: PluginNames): string;
}

const KIT = "'../../../core/kit.ts'";
const TESTING = "'../../../core/testing.ts'";

export const TEMPLATES: Readonly<Record<string, PluginTemplate>> = {
  format: {
    source: ({ name, variable }) => `/**
 * The ${name} format: the headings of the extracted content, in order. Replace this comment
 * with what the format returns and why a caller asks for it.
 */
import { z } from 'zod';
import { definePlugin } from ${KIT};

export const ${variable} = definePlugin({
  kind: 'format',
  name: '${name}',
  description: 'The headings of the extracted content, in order.',
  provides: ['format:${name}'],
  options: z.strictObject({ maxLevel: z.number().int().min(1).max(6).default(3) }),
  setup(options) {
    const selector = Array.from({ length: options.maxLevel }, (_, i) => \`h\${i + 1}\`).join(',');
    return {
      render: (doc) => [...(doc.root?.querySelectorAll(selector) ?? [])].map((h) => h.textContent?.trim() ?? ''),
    };
  },
});
`,
    test: ({ name, variable }) => `// The ${name} format: what it renders from a page's content.
import { expect, test } from 'bun:test';
import { testContext, testDocument } from ${TESTING};
import { ${variable} } from './${name}.ts';

test('renders the headings down to maxLevel, in order', async () => {
  const doc = testDocument({ url: 'https://example.com/', formats: ['${name}'] });
  doc.setContentHtml('<h1>Title</h1><p>Intro</p><h2>Part</h2><h4>Detail</h4>');
  const handler = await ${variable}.setup(${variable}.options!.parse({}), testContext());
  expect(await handler.render(doc)).toEqual(['Title', 'Part']);
});
`,
    config: ({ name }) => `[plugins.format.${name}]\nmaxLevel = 3                  # deepest heading level listed\n`,
  },

  transform: {
    source: ({ name, variable }) => `/**
 * The ${name} transform: removes the elements the configured selectors match from the content.
 * Replace this comment with what the transform changes and why.
 */
import { z } from 'zod';
import { definePlugin } from ${KIT};

export const ${variable} = definePlugin({
  kind: 'transform',
  name: '${name}',
  description: 'Removes the elements the configured selectors match.',
  options: z.strictObject({ remove: z.array(z.string().min(1)).default([]) }),
  setup: (options) => ({
    apply(doc) {
      if (!doc.root || options.remove.length === 0) return;
      for (const element of doc.root.querySelectorAll(options.remove.join(','))) element.remove();
    },
  }),
});
`,
    test: ({ name, variable }) => `// The ${name} transform: what it leaves of a page's content.
import { expect, test } from 'bun:test';
import { testContext, testDocument } from ${TESTING};
import { ${variable} } from './${name}.ts';

test('removes what the selectors match and keeps the rest', async () => {
  const doc = testDocument({ url: 'https://example.com/' });
  doc.setContentHtml('<p>keep</p><aside>drop</aside>');
  const handler = await ${variable}.setup(${variable}.options!.parse({ remove: ['aside'] }), testContext());
  await handler.apply(doc);
  expect(doc.root!.innerHTML).toBe('<p>keep</p>');
});
`,
    config: ({ name }) => `[plugins.transform.${name}]\nremove = []                   # CSS selectors of the elements removed\n`,
  },

  document: {
    source: ({ name, variable }) => `/**
 * The ${name} document type: a \`text/x-${name}\` file, each line a paragraph. Replace this
 * comment with the files it recognises and what it reads from them.
 */
import { definePlugin, escapeHtml } from ${KIT};

const MEDIA_TYPE = 'text/x-${name}';

export const ${variable} = definePlugin({
  kind: 'document',
  name: '${name}',
  description: 'Files of type text/x-${name}, one paragraph per line.',
  setup: () => ({
    detect: (doc) => doc.response?.mediaType === MEDIA_TYPE,
    parse(doc) {
      const text = doc.response!.text ?? new TextDecoder().decode(doc.response!.body);
      const lines = text.split(/\\r?\\n/).filter((line) => line.trim());
      doc.setContentHtml(lines.map((line) => \`<p>\${escapeHtml(line)}</p>\`).join(''));
    },
  }),
});
`,
    test: ({ name, variable }) => `// The ${name} document type: which responses it takes and the content it reads from them.
import { expect, test } from 'bun:test';
import { testContext, testDocument } from ${TESTING};
import { ${variable} } from './${name}.ts';

const fetched = (mediaType: string, text: string) => {
  const doc = testDocument({ url: 'https://example.com/file' });
  doc.response = { status: 200, headers: { 'content-type': mediaType }, body: new TextEncoder().encode(text), finalUrl: doc.job.url, mediaType };
  return doc;
};

test('takes its media type only, and reads each line as a paragraph', async () => {
  const handler = await ${variable}.setup({}, testContext());
  expect(await handler.detect(fetched('text/html', '<p>x</p>'))).toBe(false);
  const doc = fetched('text/x-${name}', 'one\\n\\ntwo <b>\\n');
  expect(await handler.detect(doc)).toBe(true);
  await handler.parse(doc);
  expect(doc.root!.innerHTML).toBe('<p>one</p><p>two &lt;b&gt;</p>');
});
`,
    config: ({ name }) => `[plugins.document.${name}]\n`,
  },

  source: {
    source: ({ name, variable }) => `/**
 * The ${name} source: pages of the configured hosts, fetched with the core HTTP client and
 * handed over as a page built from their text. Replace this comment with the sites it serves and
 * what it builds for them.
 */
import { z } from 'zod';
import { definePlugin, escapeHtml, Tokens } from ${KIT};

export const ${variable} = definePlugin({
  kind: 'source',
  name: '${name}',
  description: 'Pages of the configured hosts, as their text in a built page.',
  options: z.strictObject({ hosts: z.array(z.string().min(1)).default([]) }),
  setup(options, ctx) {
    const http = ctx.resolve(Tokens.Http);
    return {
      matches: (job) => options.hosts.includes(new URL(job.url).hostname),
      async fetch(doc) {
        const page = await http.request(doc.job.url, { signal: doc.job.signal });
        doc.response = { ...page, builtHtml: \`<html><body><pre>\${escapeHtml(page.text ?? '')}</pre></body></html>\` };
      },
    };
  },
});
`,
    test: ({ name, variable }) => `// The ${name} source: which jobs it takes and the page it builds, against a fixture site.
import { afterAll, expect, test } from 'bun:test';
import { startFixtureSite, testDocument, testHttpContext, testJob } from ${TESTING};
import { ${variable} } from './${name}.ts';

const site = startFixtureSite({ '/': { body: 'hello <world>', headers: { 'content-type': 'text/plain' } } });
afterAll(() => site.stop());

test('takes the configured hosts only and builds a page from the text', async () => {
  const handler = await ${variable}.setup(${variable}.options!.parse({ hosts: ['127.0.0.1'] }), testHttpContext());
  expect(handler.matches(testJob({ url: 'https://example.com/' }))).toBe(false);
  const doc = testDocument({ url: site.at('/') });
  expect(handler.matches(doc.job)).toBe(true);
  await handler.fetch(doc);
  expect(doc.response!.builtHtml).toContain('<pre>hello &lt;world&gt;</pre>');
});
`,
    config: ({ name }) => `[plugins.source.${name}]\nhosts = []                    # host names whose pages this source builds\n`,
  },

  search: {
    source: ({ name, variable }) => `/**
 * The ${name} search provider: \`GET <url>/search?q=…\` answering \`{results: [{url, title,
 * snippet}]}\`. Enabled by setting \`url\`. Replace this comment with the provider's API and
 * how its failures read.
 */
import { z } from 'zod';
import { definePlugin, Tokens } from ${KIT};
import { callProvider, jsonOf, providerError, statusError } from '../shared/http.ts';
import { joinUrl, providerOptions, ranked, trackedProvider } from '../shared/provider.ts';

interface Answer {
  results?: Array<{ url?: unknown; title?: unknown; snippet?: unknown }>;
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');

export const ${variable} = definePlugin({
  kind: 'search',
  name: '${name}',
  description: 'A search API at \`url\`; enabled by setting it.',
  enabledBy: ['url'],
  options: z.strictObject({
    url: z.url({ protocol: /^https?$/ }).optional().describe('Base URL of the search API; setting it enables the provider.'),
    timeoutMs: providerOptions.timeoutMs,
  }),
  setup(options, ctx) {
    const http = ctx.resolve(Tokens.Http);
    // The registry enables this plugin only with \`url\` set.
    const endpoint = joinUrl(options.url!, '/search');
    return trackedProvider(endpoint, async (query) => {
      const response = await callProvider(http, \`\${endpoint}?\${new URLSearchParams({ q: query.query })}\`, { timeoutMs: options.timeoutMs, signal: query.signal });
      if (response.status >= 400) throw statusError(response, '');
      const answer = jsonOf(response) as Answer;
      if (!Array.isArray(answer?.results)) throw providerError('answered JSON without a \`results\` list');
      return { hits: ranked(answer.results.slice(0, query.limit).map((r) => ({ url: text(r.url), title: text(r.title), description: text(r.snippet) }))) };
    });
  },
});
`,
    test: ({ name, variable }) => `// The ${name} search provider against a fixture API: results, and a failure in the provider's words.
import { afterAll, expect, test } from 'bun:test';
import { providerHandler, rejection, searchQuery, someResults, startFixtureSite } from ${TESTING};
import { ${variable} } from './${name}.ts';

const api = startFixtureSite({
  '/search': (req) => (new URL(req.url).searchParams.get('q') === 'down' ? new Response('busy', { status: 503 }) : Response.json({ results: someResults(7) })),
});
afterAll(() => api.stop());

test('answers the hits in order, at most the limit', async () => {
  const handler = await providerHandler(${variable}, { url: api.url });
  const answer = await handler.search(searchQuery('trawl'));
  expect(answer.hits.map((h) => h.position)).toEqual([1, 2, 3, 4, 5]);
  expect(answer.hits[0]).toMatchObject({ url: 'https://example.com/page1', title: 'Page 1', description: 'About page 1' });
  expect(handler.status().state).toBe('ok');
});

test('a failing API is an error, and the status says so', async () => {
  const handler = await providerHandler(${variable}, { url: api.url });
  expect((await rejection(handler.search(searchQuery('down')))).message).toContain('503');
  expect(handler.status().state).toBe('failing');
});
`,
    config: ({ name }) => `[plugins.search.${name}]\n# url = "https://search.example"  # enables the provider\ntimeoutMs = 10000\n`,
  },
};
