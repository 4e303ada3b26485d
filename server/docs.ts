/**
 * The pages a browser meets: `/docs`, the API reference rendered from /openapi.json by Swagger UI
 * (the `swagger-ui-dist` package, served from node_modules: no CDN, works offline) with a side
 * navigation of the endpoint families, markdown descriptions, examples and "Try it out" with the
 * user's key (Authorize); `/`, a small page linking the reference and the dashboards for a
 * browser, a JSON object naming the service for an API client; and the pages' vendored scripts
 * (Chart.js, the `chart.js` package's UMD build, for the account page) under the same asset path. Nothing here echoes the request:
 * the pages are fixed text, and a Content-Security-Policy allows only this server's own scripts.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const VENDOR_DIR = dirname(fileURLToPath(import.meta.resolve('swagger-ui-dist/package.json')));
const CHART_DIR = dirname(fileURLToPath(import.meta.resolve('chart.js/package.json')));
const versionOf = (dir: string) => (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version;
const VENDOR_VERSION = `${versionOf(VENDOR_DIR)}+chart.js-${versionOf(CHART_DIR)}`;

/** Starts the reference and lists its tag groups (the endpoint families) in the side navigation. */
const SCRIPT = `'use strict';
const ui = SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#reference',
  deepLinking: true,
  docExpansion: 'list',
  defaultModelsExpandDepth: 0,
  filter: true,
  persistAuthorization: true,
  displayRequestDuration: true,
  requestSnippetsEnabled: true,
  validatorUrl: null,
  onComplete: listFamilies,
});
function tagElement(name) { return document.getElementById('operations-tag-' + name.replace(/\\s/g, '_')); }
function listFamilies() {
  const nav = document.getElementById('families');
  const tags = ui.getSystem().specSelectors.specJson().get('tags');
  for (const tag of tags ? tags.toJS() : []) {
    const link = document.createElement('a');
    link.textContent = tag.name;
    link.href = '#/' + encodeURIComponent(tag.name);
    if (tag.description) link.title = tag.description;
    link.addEventListener('click', (event) => {
      event.preventDefault();
      ui.getSystem().layoutActions.show(['operations-tag', tag.name], true);
      history.replaceState(null, '', link.href);
      const target = tagElement(tag.name);
      if (target) target.scrollIntoView({ block: 'start' });
    });
    nav.append(link);
  }
  nav.dataset.ready = 'true';
}
`;

const STYLE = `
body{margin:0;font:15px/1.45 system-ui,sans-serif;color:#1d232a;background:#fff}
.bar{position:sticky;top:0;z-index:10;display:flex;gap:1.2rem;align-items:center;padding:.6rem 1.5rem;background:#17324d;color:#fff}
.bar a{color:#fff;text-decoration:none}.bar .name{font-weight:700;font-size:1.1rem;margin-right:auto}
.layout{display:flex;align-items:flex-start}
#families{position:sticky;top:2.8rem;flex:0 0 13rem;max-height:calc(100vh - 3.5rem);overflow:auto;padding:1rem .5rem 1rem 1.2rem;border-right:1px solid #e3e6ea}
#families a{display:block;padding:.25rem .5rem;border-radius:5px;color:#17324d;text-decoration:none}
#families a:hover{background:#eef3f8}
#reference{flex:1;min-width:0}
#reference h3[id^=operations-tag-]{scroll-margin-top:3.5rem}
#reference .swagger-ui .wrapper{max-width:1100px}
@media (max-width:800px){.layout{display:block}#families{position:static;max-height:none;border-right:0}}
.home{max-width:40rem;margin:3rem auto;padding:0 1.5rem}.home ul{padding-left:1.2rem}.home li{margin:.4rem 0}.home a{color:#17518a}.muted{color:#68727d}
`;

interface Asset {
  type: string;
  body: () => Uint8Array<ArrayBuffer>;
}

const vendor = (file: string, type: string, dir = VENDOR_DIR): Asset => ({
  type,
  body: () => new Uint8Array(readFileSync(join(dir, file))),
});
const own = (text: string, type: string): Asset => ({ type, body: () => new TextEncoder().encode(text) });

const ASSETS: Record<string, Asset> = {
  'swagger-ui-bundle.js': vendor('swagger-ui-bundle.js', 'text/javascript; charset=utf-8'),
  'swagger-ui.css': vendor('swagger-ui.css', 'text/css; charset=utf-8'),
  'favicon.png': vendor('favicon-32x32.png', 'image/png'),
  'chart.umd.min.js': vendor('dist/chart.umd.min.js', 'text/javascript; charset=utf-8', CHART_DIR),
  'docs.js': own(SCRIPT, 'text/javascript; charset=utf-8'),
  'docs.css': own(STYLE, 'text/css; charset=utf-8'),
};

/** In every asset URL: a new Swagger UI or Chart.js or a changed script or style is a new URL, so browsers may keep an asset for good. */
const ASSET_TAG = createHash('sha256').update(`${VENDOR_VERSION}\n${SCRIPT}\n${STYLE}`).digest('hex').slice(0, 12);
/** The path an asset is served at (the account page loads Chart.js from here). */
export const asset = (file: string) => `/docs/assets/${ASSET_TAG}/${file}`;

/** Read (and gzipped) once, on first use. */
const loaded = new Map<string, { raw: Uint8Array<ArrayBuffer>; gzip: Uint8Array<ArrayBuffer>; etag: string }>();

/** GET /docs/assets/{tag}/{file}: a listed file, cached for a year under its tag; anything else is null (404). */
export function docsAsset(tag: string, file: string, request: Request): Response | null {
  const found = Object.hasOwn(ASSETS, file) ? ASSETS[file]! : null;
  if (!found || tag !== ASSET_TAG) return null;
  let entry = loaded.get(file);
  if (!entry) {
    const raw = found.body();
    entry = { raw, gzip: Bun.gzipSync(raw), etag: `"${ASSET_TAG}-${file}"` };
    loaded.set(file, entry);
  }
  const headers: Record<string, string> = {
    'content-type': found.type,
    'cache-control': 'public, max-age=31536000, immutable',
    etag: entry.etag,
    vary: 'accept-encoding',
    'x-content-type-options': 'nosniff',
  };
  if (request.headers.get('if-none-match') === entry.etag) return new Response(null, { status: 304, headers });
  const gzip = /\bgzip\b/.test(request.headers.get('accept-encoding') ?? '') && entry.gzip.length < entry.raw.length;
  return new Response(gzip ? entry.gzip : entry.raw, { headers: gzip ? { ...headers, 'content-encoding': 'gzip' } : headers });
}

const PAGE_HEADERS = { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff' };
/** Swagger UI sets styles from script (style-src 'unsafe-inline'); its images are data: URLs; try-it calls this server only. */
const DOCS_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; " +
  "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** GET /docs. */
export function docsResponse(): Response {
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Trawl API reference</title>
<link rel="icon" href="${asset('favicon.png')}"><link rel="stylesheet" href="${asset('swagger-ui.css')}"><link rel="stylesheet" href="${asset('docs.css')}"></head>
<body><header class="bar"><a class="name" href="/">Trawl API</a><a href="/dashboard">Dashboard</a><a href="/openapi.json">openapi.json</a></header>
<div class="layout"><nav id="families" aria-label="Endpoint families"></nav>
<main id="reference"><noscript>The reference needs JavaScript; the document itself is at <a href="/openapi.json">/openapi.json</a>.</noscript></main></div>
<script src="${asset('swagger-ui-bundle.js')}"></script><script src="${asset('docs.js')}"></script>
</body></html>`;
  return new Response(html, { headers: { ...PAGE_HEADERS, 'content-security-policy': DOCS_CSP } });
}

const LINKS = { docs: '/docs', openapi: '/openapi.json', dashboard: '/dashboard', account: '/account', health: '/health', mcp: '/mcp' };

/** `/` in the OpenAPI document (the pages themselves are not API operations). */
export const rootOpenApi = {
  paths: {
    '/': {
      get: {
        summary: 'The service and where to start',
        description:
          'No key needed. A browser (`Accept` naming `text/html`) gets a page linking the reference (/docs), the watch dashboard and the account page; any other client this JSON.',
        security: [],
        responses: {
          200: {
            description: "The service's name, version and entry points",
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['name', 'version', 'links'],
                  properties: {
                    name: { type: 'string', const: 'Trawl' },
                    version: { type: 'string' },
                    links: {
                      type: 'object',
                      additionalProperties: { type: 'string' },
                      description: 'Paths of the reference, the OpenAPI document, the watch dashboard, the account page, health and MCP.',
                    },
                  },
                },
                example: { name: 'Trawl', version: '0.1.0', links: LINKS },
              },
              'text/html': { schema: { type: 'string' } },
            },
          },
        },
      },
    },
  },
};

/** GET /: a browser (Accept naming text/html) gets a page of links; an API client the same as JSON. */
export function rootResponse(request: Request, version: string): Response {
  if (!/\btext\/html\b/i.test(request.headers.get('accept') ?? '')) {
    return Response.json({ name: 'Trawl', version, links: LINKS }, { headers: { vary: 'accept' } });
  }
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Trawl</title>
<link rel="stylesheet" href="${asset('docs.css')}"></head>
<body><header class="bar"><span class="name">Trawl</span><span>${version.replace(/[^\w.+-]/g, '')}</span></header>
<main class="home"><p>Web content extraction: scrape, crawl, map, search, extract and watch pages.</p><ul>
<li><a href="/docs">API reference</a> <span class="muted">— every endpoint, with examples and “Try it out”</span></li>
<li><a href="/dashboard">Dashboard</a> <span class="muted">— watches and their changes</span></li>
<li><a href="/account">Account</a> <span class="muted">— balance, usage, results history and API keys of your workspace</span></li>
<li><a href="/openapi.json">openapi.json</a> <span class="muted">— the OpenAPI document</span></li>
<li><a href="/health">Health</a></li></ul></main></body></html>`;
  return new Response(html, {
    headers: {
      ...PAGE_HEADERS,
      vary: 'accept',
      'content-security-policy': "default-src 'none'; style-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    },
  });
}
