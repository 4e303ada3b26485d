/**
 * The OpenAPI of POST /v1/scrape: the request (from the zod schema that validates it), the result
 * and metadata shapes with every decision the interface left open, and what the enabled plugins
 * add to them (server/plugin-api.ts renders their `api` metadata).
 */
import type { z } from 'zod';
import { errorBody, jsonBody, toJson } from '../../openapi-shapes.ts';
import type { OpenApiPart } from '../../route.ts';
import type { PluginContributions } from '../../plugin-api.ts';

const str = (description: string, nullable = false) =>
  nullable ? { type: ['string', 'null'], description } : { type: 'string', description };

const metadataSchema = (plugins: PluginContributions) => ({
  type: 'object',
  required: ['title', 'description', 'author', 'published_date', 'language', 'site_name', 'image', 'favicon', 'word_count'],
  properties: {
    title: str('From og:title, twitter:title, JSON-LD headline, <title>, else the first <h1>.'),
    description: str('From meta description, og:description or twitter:description.'),
    author: str('Author name from JSON-LD, meta author, microdata or a visible byline.', true),
    published_date: str('Publication date as ISO 8601, from JSON-LD, article:published_time, microdata or <time>.', true),
    language: str('Page language code (<html lang>, Content-Language, og:locale).', true),
    site_name: str('From og:site_name or the JSON-LD publisher.', true),
    image: str('Primary image URL (Open Graph or Twitter card), absolute.', true),
    favicon: str(
      'The largest icon the page declares (as the page states it), else `/favicon.ico` of the origin ' +
        'once a check (cached per origin, within `scrape.faviconBudgetMs`) saw it answer with an image; null ' +
        'otherwise.',
      true,
    ),
    word_count: { type: 'integer', description: 'Words in the extracted content (after selectors and ' + 'main-content extraction).' },
    status_code: { type: 'integer', description: 'HTTP status of the final response.' },
    final_url: str('URL after redirects.'),
    content_type: str('Media type of the response.'),
    rendered: {
      type: 'boolean',
      description: 'Present (true) when the page was rendered in the browser, on ' + 'request or automatically.',
    },
    retry_after_seconds: {
      type: 'integer',
      description:
        'Present when the page was a 429 or 503 with Retry-After: ' +
        'how long the server asked to be left alone, in seconds (crawls hold its host off for it).',
    },
    ...plugins.metadataProperties,
  },
});

const linkSchema = {
  type: 'object',
  required: ['text', 'href'],
  properties: { text: { type: 'string' }, href: { type: 'string', format: 'uri' } },
};

const assetSchema = {
  type: 'object',
  required: ['type', 'url'],
  properties: {
    type: { type: 'string', enum: ['image', 'video', 'audio'] },
    url: { type: 'string', format: 'uri' },
    alt: str('Alt text of an image, when it has one.'),
  },
};

const extractionSchema = {
  type: 'object',
  required: ['url', 'metadata', 'content', 'word_count', 'links', 'assets'],
  description:
    'The `json` format: the whole extraction result. Rendered on its own, so it is identical whether or ' +
    'not the other formats are requested.',
  properties: {
    url: str('The URL as requested (normalised); `metadata.final_url` is where it led.'),
    metadata: { $ref: '#/components/schemas/Metadata' },
    content: {
      type: 'object',
      required: ['markdown', 'text'],
      properties: { markdown: str('As the `markdown` format.'), text: str('As the `text` format.') },
    },
    word_count: { type: 'integer', description: 'Words of `content.text`; equals `metadata.word_count`.' },
    links: {
      type: 'array',
      items: { $ref: '#/components/schemas/Link' },
      description:
        'Links inside the extracted ' +
        'content (after selectors and `only_main_content`; the `links` format lists the whole page), absolute ' +
        'http(s), tracking parameters removed, each href+text pair once.',
    },
    assets: {
      type: 'array',
      items: { $ref: '#/components/schemas/Asset' },
      description:
        'Images, video and audio of ' +
        'the extracted content in document order, absolute, without repeats, tracking pixels or data: URIs.',
    },
  },
};

const attributeValuesSchema = {
  type: 'object',
  required: ['selector', 'attribute', 'values'],
  properties: {
    selector: str('As requested.'),
    attribute: str('As requested.'),
    values: {
      type: 'array',
      items: { type: 'string' },
      description:
        'The attribute on every matching element that ' + 'has it, in document order (at most 10,000; a warning says when more matched).',
    },
  },
};

const scrapeResultSchema = (plugins: PluginContributions) => ({
  type: 'object',
  required: ['url', 'metadata'],
  description: 'Only the requested formats are present.',
  properties: {
    url: str('The URL as requested (normalised).'),
    metadata: { $ref: '#/components/schemas/Metadata' },
    markdown: str(
      'CommonMark + GFM tables, absolute URLs; no empty links, no tracking parameters (utm_*, fbclid, ' +
        "gclid …) or tracking pixels, at most one blank line in a row. The content's images are collected as assets " +
        '(see `extraction.assets`).',
    ),
    text: str('Plain text; headings on their own lines, paragraphs separated by a blank line.'),
    extraction: { $ref: '#/components/schemas/Extraction' },
    llm: str(
      'Text for language models: `URL: <final URL>` and `Title: <title>` lines, a blank line, the content ' +
        'as lean markdown (no images, emphasis, escapes, table rule rows or inline URLs; figure + caption fragments ' +
        'merged into one line; typographic quotes as ASCII; wordless lines and extra whitespace removed), then ' +
        '`Links:` with one `text: target` line per distinct target (same-origin targets as paths; in-page anchors ' +
        'and text-less links left out). Sections without content are omitted.',
    ),
    attributes: {
      type: 'array',
      items: { $ref: '#/components/schemas/AttributeValues' },
      description:
        'One entry per ' +
        '`attribute_selectors` pair, in request order. Read from the page as served (before cleaning, selectors and ' +
        'main-content extraction); URL attributes (href, src, srcset, action, formaction, poster, cite, background, ' +
        'longdesc, data-src, data-href, data-srcset) made absolute, all other values exactly as written. For a ' +
        'non-HTML document, the HTML built from it.',
    },
    links: {
      type: 'array',
      items: { $ref: '#/components/schemas/Link' },
      description:
        'Every link of the whole ' +
        'page (not only the main content), absolute, deduplicated; tracking parameters (utm_*, fbclid …) removed, ' +
        'jumps within the page left out.',
    },
    rawHtml: str('The page as received, decoded to text, before any processing.'),
    warnings: {
      type: 'array',
      items: { type: 'string' },
      description: 'Present when a format or plugin reported a ' + 'problem; the other formats are still returned.',
    },
    ...plugins.resultProperties,
  },
});

/** `requestSchema`: the /v1 scrape body as the installed plugins compose it. */
export function scrapeOpenApi(formats: readonly string[], requestSchema: z.ZodType, plugins: PluginContributions): OpenApiPart {
  const request = toJson(requestSchema);
  (request.properties as Record<string, Record<string, unknown>>).actions!.items = { $ref: '#/components/schemas/Action' };
  return {
    paths: {
      '/v1/scrape': {
        post: {
          summary: 'Scrape one URL',
          description:
            `Formats: ${formats.join(', ')}. A format whose plugin is disabled or not installed is a 400 naming the plugin. ` +
            'Results are cached per workspace, URL and options for `storage.cacheTtlSeconds` ' +
            '(response header `X-Trawl-Cache: hit|miss`); ' +
            '`no_cache: true` forces a fresh fetch. Stage timings are in the `Server-Timing` header. ' +
            'A target answering 4xx/5xx is still scraped; its status is in `metadata.status_code`.' +
            plugins.description,
          requestBody: { required: true, content: { 'application/json': { schema: request } } },
          responses: {
            200: jsonBody({ $ref: '#/components/schemas/ScrapeResult' }, 'The scrape result'),
            400: errorBody(
              'Invalid request, e.g. `Missing required field: url`, `Format "attributes" requires ' +
                'attribute_selectors: a list of {selector, attribute}`, or a selector past a limit ' +
                '(include_selectors, exclude_selectors, attribute_selectors: 50 selectors per field, 2000 ' +
                'characters, 50 alternatives per selector and 100 per field, 50 combinators in a row, pseudo-classes ' +
                'nested 3 deep, :nth-*() numbers up to 10000, no :has() starting at a sibling such as `p:has(~ p)`: ' +
                '`Invalid field exclude_selectors[0]: "p:has(~ p)": :has() with a sibling combinator (~ or +) is not ' +
                'supported …`), e.g. `Invalid field include_selectors[0]: :nth-child() argument out of range ' +
                '(numbers up to 10000)`',
            ),
            401: errorBody('Invalid or missing API key'),
            413: errorBody('Request body too large'),
            422: errorBody(
              'The URL could not be fetched or its content not processed, e.g. `Unsupported content: ' +
                'the body is binary (PNG), not text/html`; or the scrape passed its `timeout` (whole scrape, fetch ' +
                'included: `Scrape timed out after 5000 ms`, answered at the deadline) or the memory limits ' +
                '(`workers.memoryLimitMb`, `workers.maxRssMb`; a rendered page also `browser.maxResponseBytes`, ' +
                '`browser.maxPageBytes`, `browser.maxRendererMb`), the error naming the one passed; or matching the ' +
                'include/exclude selectors passed its CPU budget (`Matching the selectors "…" took longer than 2000 ' +
                'ms (scrape.selectorBudgetMs)`); or the page is a block, not content: `{error: "Blocked by ' +
                'cloudflare (challenge)", code: "blocked", vendor, kind, status_code}` (never cached or charged; ' +
                '`proxy: "auto"` retries before answering this)',
            ),
            503: errorBody(
              'The server is too busy: its content workers have a full queue (`workers.maxQueue`); ' +
                'retry after the `Retry-After` seconds',
            ),
          },
        },
      },
    },
    schemas: {
      ...plugins.schemas,
      ScrapeRequest: request,
      ScrapeResult: scrapeResultSchema(plugins),
      Metadata: metadataSchema(plugins),
      Link: linkSchema,
      Asset: assetSchema,
      Extraction: extractionSchema,
      AttributeValues: attributeValuesSchema,
    },
  };
}
