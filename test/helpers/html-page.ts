/**
 * An HTML page taken along the path a scrape takes, without a server, fetch or registry: the HTML
 * document plugin's parse, then every built-in transform in pipeline order, each with its default
 * options; and any built-in format. Tests whose input is what other plugins leave (main content
 * after clean and selectors, a format after the transforms) use it, so no plugin's test imports
 * another plugin's folder.
 */
import type { PageDocument } from '../../core/document.ts';
import type { FormatHandler, TransformHandler } from '../../core/plugin.ts';
import { builtinPlugins } from '../../plugins/index.ts';
import { parseHtmlPage } from '../../plugins/document/html/html.ts';
import { testContext, testDocument } from './plugin-context.ts';

const RANK = { pre: 0, normal: 1, post: 2 } as const;
let transforms: Array<{ id: string; handler: TransformHandler }> | null = null;

/** The built-in transforms, set up once, in the order the registry runs them. */
function builtinTransforms(): Array<{ id: string; handler: TransformHandler }> {
  if (transforms) return transforms;
  const ctx = testContext();
  transforms = builtinPlugins
    .filter((p) => p.kind === 'transform')
    .sort((a, b) => RANK[a.order ?? 'normal'] - RANK[b.order ?? 'normal'])
    .map((p) => {
      const handler = p.setup(p.options?.parse({}) ?? {}, ctx);
      if (handler instanceof Promise) throw new Error(`${p.name}: asynchronous setup is not supported here`);
      return { id: `transform.${p.name}`, handler: handler as TransformHandler };
    });
  return transforms;
}

/**
 * Parses `html` as the HTML document plugin does and runs the transforms up to and including
 * `until` (all when unset). `request` is an internal (camelCase) scrape request; url defaults to a neutral one.
 */
export function htmlPage(html: string, request: Record<string, unknown> = {}, until?: string): PageDocument {
  const doc = testDocument({ url: 'https://example.com/', ...request });
  doc.response = {
    status: 200,
    headers: { 'content-type': 'text/html' },
    body: new Uint8Array(0),
    finalUrl: doc.job.url,
    mediaType: 'text/html',
    text: html,
    charset: 'utf-8',
  };
  return htmlStages(doc, until);
}

/** The document and transform stages for a fetched HTML page (`doc.response` set, `doc.dom` too when rendered). */
export function htmlStages(doc: PageDocument, until?: string): PageDocument {
  parseHtmlPage(doc);
  for (const { id, handler } of builtinTransforms()) {
    if (handler.apply(doc) instanceof Promise) throw new Error(`${id}: asynchronous transforms are not supported here`);
    if (id === until) break;
  }
  return doc;
}

/** What the built-in plugin that renders `format` (e.g. `markdown`) makes of `doc`, set up with its default options. */
export async function renderFormat(format: string, doc: PageDocument): Promise<unknown> {
  const plugin = builtinPlugins.find((p) => p.kind === 'format' && p.provides?.includes(`format:${format}`));
  if (!plugin) throw new Error(`no built-in plugin renders ${format}`);
  const handler = (await plugin.setup(plugin.options?.parse({}) ?? {}, testContext())) as FormatHandler;
  return handler.render(doc);
}

/** Main content of `html` as a scrape with only_main_content gets it (the content root after the transforms). */
export function mainContentOf(html: string, request: Record<string, unknown> = {}): Element {
  return htmlPage(html, { onlyMainContent: true, ...request }).root!;
}
