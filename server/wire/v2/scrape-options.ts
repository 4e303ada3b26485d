/**
 * /v2 scrape options (Firecrawl's v2 shape, camelCase) into the internal scrape request: formats
 * given as strings or `{type, …}` objects, `includeTags`/`excludeTags`, `waitFor` (a wait before
 * the actions), `actions` in their /v2 spelling, `location` languages as `Accept-Language`,
 * `maxAge` onto the cache, `proxy` onto the operator's `[v2.proxies]` (by the route, proxy.ts). Options
 * Trawl does not carry out (ad blocking, PII redaction…)
 * are accepted and named in the answer's `warning`, as Firecrawl's self-hosted server accepts what
 * its engines lack; an option whose
 * absence would change the result (`json` without a prompt or schema, a `pdf` action) is a 400.
 * The presenter (present.ts) reads the same internal request back, so a crawl's stored options
 * are all it needs to show its pages in /v2 shape.
 */
import { z } from 'zod';
import type { RequestedAction } from '../../../core/model/request.ts';

/** The script behind a `scrape` action: the page's HTML and address at that point of the sequence. */
export const SCRAPE_ACTION_SCRIPT = '({ url: location.href, html: document.documentElement.outerHTML })';

/** Formats whose internal name differs from the /v2 one (`images` come from the extraction's assets). */
export const V2_FORMATS: Readonly<Record<string, string>> = {
  markdown: 'markdown',
  html: 'html',
  rawHtml: 'rawHtml',
  links: 'links',
  screenshot: 'screenshot',
  summary: 'summary',
  json: 'extract',
  images: 'json',
  attributes: 'attributes',
  question: 'query',
};
const UNSUPPORTED_FORMATS = new Set([
  'rawBase64',
  'changeTracking',
  'branding',
  'product',
  'menu',
  'highlights',
  'query',
  'audio',
  'video',
  'deterministicJson',
]);

/** Accepted and meaningless here: no warning (the SDK sends `origin` with every body). */
export const SILENT_OPTIONS = new Set(['origin', 'integration']);

const format = z.union([z.string().min(1), z.looseObject({ type: z.string().min(1) })]);
const tagList = z.array(z.string()).max(50);

export const v2ScrapeOptionFields = {
  formats: z.array(format).max(20).optional(),
  onlyMainContent: z.boolean().default(true),
  includeTags: tagList.optional(),
  excludeTags: tagList.optional(),
  waitFor: z.number().int().min(0).max(60_000).default(0),
  timeout: z.number().int().min(1000).max(300_000).optional(),
  mobile: z.boolean().default(false),
  actions: z
    .array(z.looseObject({ type: z.string().min(1) }))
    .max(50)
    .optional(),
  headers: z.record(z.string(), z.string()).optional(),
  location: z.object({ country: z.string().max(20).optional(), languages: z.array(z.string().max(35)).max(20).optional() }).optional(),
  maxAge: z.number().int().min(0).optional(),
  storeInCache: z.boolean().optional(),
  /** Mapped onto this server's proxy choices by `[v2.proxies]` (server/wire/v2/proxy.ts); Firecrawl's default is auto. */
  proxy: z.enum(['basic', 'stealth', 'enhanced', 'auto']).default('auto'),
};
export const V2_SCRAPE_OPTION_NAMES = new Set(Object.keys(v2ScrapeOptionFields));

type V2Options = z.output<z.ZodObject<typeof v2ScrapeOptionFields>>;
type Issue = { path: PropertyKey[]; message: string };

/** What a conversion produced: the internal options, what was ignored and what was refused. */
export interface Converted {
  options: Record<string, unknown>;
  warnings: string[];
  issues: Issue[];
  /** Firecrawl's proxy value, for the route to map with `[v2.proxies]` (it needs the configuration). */
  proxy: V2Proxy;
}

export type V2Proxy = V2Options['proxy'];

/** Internal field → /v2 field, for messages about the converted options. */
const V2_NAMES: Readonly<Record<string, string>> = {
  includeSelectors: 'includeTags',
  excludeSelectors: 'excludeTags',
  timeoutMs: 'timeout',
  maxAgeMs: 'maxAge',
  attributeSelectors: 'formats',
  extract: 'formats',
  query: 'formats',
};
export const v2FieldName = (path: string) => path.replace(/^[A-Za-z0-9]+/, (field) => V2_NAMES[field] ?? field);

function convertFormats(formats: V2Options['formats'], into: Record<string, unknown>, converted: Converted): string[] {
  const internal: string[] = [];
  (formats ?? ['markdown']).forEach((entry, index) => {
    const spec: { type: string; [key: string]: unknown } = typeof entry === 'string' ? { type: entry } : entry;
    const at = ['formats', index];
    if (UNSUPPORTED_FORMATS.has(spec.type)) {
      converted.warnings.push(`Format "${spec.type}" is not supported by this server and was ignored`);
      return;
    }
    const name = V2_FORMATS[spec.type];
    if (!name) {
      converted.issues.push({ path: at, message: `unknown format "${spec.type}". Valid formats: ${Object.keys(V2_FORMATS).join(', ')}` });
      return;
    }
    if (spec.type === 'json') {
      if (typeof entry === 'string' || (spec.prompt === undefined && spec.schema === undefined)) {
        converted.issues.push({
          path: at,
          message: 'json format must be an object with { type: "json", prompt?, schema? } and at least one of prompt and schema',
        });
        return;
      }
      into.extract = {
        ...(spec.prompt !== undefined ? { prompt: spec.prompt } : {}),
        ...(spec.schema !== undefined ? { schema: spec.schema } : {}),
      };
    }
    if (spec.type === 'attributes') into.attributeSelectors = spec.selectors;
    if (spec.type === 'question') into.query = spec.question;
    if (!internal.includes(name)) internal.push(name);
  });
  // Firecrawl allows an empty list (metadata only); a scrape here renders at least one format.
  return internal.length ? internal : ['markdown'];
}

/** One /v2 action as the action plugins spell it; null (with an issue) when Trawl has no such action. */
function convertAction(action: Record<string, unknown>, index: number, converted: Converted): RequestedAction | null {
  const { type, ...fields } = action as { type: string; [key: string]: unknown };
  const at = ['actions', index];
  const drop = (field: string, why: string) => {
    if (fields[field] !== undefined) converted.warnings.push(`actions[${index}].${field} ${why}`);
  };
  switch (type) {
    case 'wait':
      return {
        type,
        ...(fields.milliseconds !== undefined ? { milliseconds: fields.milliseconds } : {}),
        ...(fields.selector !== undefined ? { selector: fields.selector } : {}),
      };
    case 'click':
      drop('all', 'is not supported: the first match is clicked');
      return { type, selector: fields.selector };
    case 'screenshot':
      drop('quality', 'is not supported: screenshots are PNG');
      drop('viewport', "is not supported: the browser's viewport is used");
      return { type, ...(fields.fullPage !== undefined ? { fullPage: fields.fullPage } : {}) };
    case 'write':
      // Firecrawl types into the element that has the focus (after a click).
      return { type: 'type', selector: ':focus', value: fields.text };
    case 'press':
      return { type, key: fields.key };
    case 'scroll':
      drop('selector', 'is not supported: the page is scrolled');
      return { type, ...(fields.direction !== undefined ? { direction: fields.direction } : {}) };
    case 'scrape':
      return { type: 'executeJavascript', code: SCRAPE_ACTION_SCRIPT };
    case 'executeJavascript':
      return { type, code: fields.script };
    default:
      converted.issues.push({
        path: at,
        message: `action type "${type}" is not supported (wait, click, screenshot, write, press, scroll, scrape, executeJavascript)`,
      });
      return null;
  }
}

/** The internal scrape options (without url) of a /v2 options object, validated for type by the caller's zod schema. */
export function convertScrapeOptions(body: V2Options & Record<string, unknown>): Converted {
  const converted: Converted = { options: {}, warnings: [], issues: [], proxy: body.proxy ?? 'auto' };
  const out = converted.options;
  out.formats = convertFormats(body.formats, out, converted);
  out.onlyMainContent = body.onlyMainContent;
  if (body.includeTags?.length) out.includeSelectors = body.includeTags;
  if (body.excludeTags?.length) out.excludeSelectors = body.excludeTags;
  if (body.timeout !== undefined) out.timeoutMs = body.timeout;
  if (body.mobile) out.mobile = true;
  if (body.waitFor > 0 && body.timeout !== undefined && body.waitFor > body.timeout / 2) {
    converted.issues.push({ path: ['waitFor'], message: 'waitFor must not exceed half of timeout' });
  }
  const actions = (body.actions ?? []).map((action, index) => convertAction(action, index, converted)).filter((a) => a !== null);
  if (body.waitFor > 0) actions.unshift({ type: 'wait', milliseconds: body.waitFor });
  if (actions.length) out.actions = actions;
  const headers: Record<string, string> = { ...body.headers };
  const languages = body.location?.languages;
  if (languages?.length && !Object.keys(headers).some((name) => name.toLowerCase() === 'accept-language'))
    headers['Accept-Language'] = languages.join(', ');
  if (Object.keys(headers).length) out.headers = headers;
  if (body.location?.country)
    converted.warnings.push(
      "location.country is not applied (pages are fetched from this server's own network); location.languages are sent as Accept-Language",
    );
  if (body.maxAge !== undefined) out.maxAgeMs = body.maxAge;
  if (body.storeInCache === false) out.storeInCache = false;
  return converted;
}

/** Keys of a body that are neither /v2 options nor `known` to the caller: ignored, named in a warning. */
export function ignoredOptions(body: Record<string, unknown>, known: ReadonlySet<string>): string[] {
  const ignored = Object.keys(body).filter((key) => !known.has(key) && !V2_SCRAPE_OPTION_NAMES.has(key) && !SILENT_OPTIONS.has(key));
  return ignored.length ? [`Not supported by this server and ignored: ${ignored.join(', ')}`] : [];
}
