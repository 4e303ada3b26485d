/**
 * The CPU half of endpoint discovery, run as content-worker tasks (ContentRunner.task) because it
 * parses untrusted markup and JavaScript: reading the page's scripts out of its HTML, and running
 * the `scanner` plugins over sources. Each source is scanned under its own time limit (a limited
 * section: past it the pool stops the worker and the request fails with a message naming the
 * source and `endpoints.scanTimeoutMs`); memory is the pool's limit for any task.
 */
import { attr, parseHtmlDocument } from '../../dom.ts';
import { TrawlError } from '../../errors.ts';
import { absoluteUrl, documentBaseUrl, isHttpUrl } from '../../net/url.ts';
import type { ScanHit, ScanSource } from '../../plugin.ts';
import type { PluginRegistry } from '../../registry.ts';
import { bootedRegistry } from '../../content-task.ts';
import { withinLimit } from '../../workers/section.ts';
import { task, type TaskContext } from '../../workers/task.ts';

/** Hits kept per source: a hostile script cannot make an answer of millions. */
const MAX_HITS_PER_SOURCE = 20_000;
/** Elements of the page read for its scripts (the HTML document plugin's default). */
const MAX_ELEMENTS = 300_000;
const JS_TYPES =
  /^(?:|module|text\/javascript|application\/javascript|application\/x-javascript|text\/ecmascript|application\/ecmascript|text\/jsx|text\/babel)$/i;

export interface ScannedSource {
  name: string;
  hits: ScanHit[];
  warnings: string[];
}

export interface PageInput {
  html: string;
  pageUrl: string;
  scanTimeoutMs: number;
}

export interface PageOutput {
  /** Script URLs in page order (`<script src>`, module preloads, script preloads), de-duplicated. */
  bundles: string[];
  inline: ScannedSource[];
}

export interface ScanInput {
  sources: ScanSource[];
  scanTimeoutMs: number;
}

/** The page's inline scripts and script URLs. */
export function pageScripts(html: string, pageUrl: string): { inline: string[]; bundles: string[] } {
  const dom = parseHtmlDocument(html, { maxElements: MAX_ELEMENTS });
  const base = documentBaseUrl(dom, pageUrl);
  const inline: string[] = [];
  const bundles = new Set<string>();
  const add = (href: string | null) => {
    const url = absoluteUrl(href, base);
    if (url && isHttpUrl(url)) bundles.add(url.replace(/#.*$/, ''));
  };
  for (const el of dom.querySelectorAll('script, link[rel][href]')) {
    if (el.localName === 'link') {
      const rel = (attr(el, 'rel') ?? '').toLowerCase().split(/\s+/);
      if (rel.includes('modulepreload') || (rel.includes('preload') && attr(el, 'as')?.toLowerCase() === 'script')) add(attr(el, 'href'));
      continue;
    }
    if (!JS_TYPES.test((attr(el, 'type') ?? '').trim())) continue;
    const src = attr(el, 'src');
    if (src !== null) add(src);
    else if (el.textContent?.trim()) inline.push(el.textContent);
  }
  return { inline, bundles: [...bundles] };
}

/** One source through the scanners that read its type, first answer wins; unpacked sources (a map's files) follow. */
export async function scanSource(
  registry: PluginRegistry,
  source: ScanSource,
  scanTimeoutMs: number,
  ctx?: TaskContext,
): Promise<ScannedSource> {
  const out: ScannedSource = { name: source.name, hits: [], warnings: [] };
  const queue = [source];
  for (let next = queue.shift(); next; next = queue.shift()) {
    const current = next;
    const scanners = registry.active('scanner').filter((s) => s.handler.reads.includes(current.type));
    const limits = {
      timeoutMs: scanTimeoutMs,
      timeoutError: new TrawlError(
        'unprocessable',
        `Scanning ${current.name} took longer than ${scanTimeoutMs} ms (endpoints.scanTimeoutMs)`,
      ),
      crashError: new TrawlError('unprocessable', `Scanning ${current.name} {reason}`),
    };
    const result = await withinLimit(limits, async () => {
      for (const [i, scanner] of scanners.entries()) {
        const answer = scanner.handler.scan(current);
        if (!answer) continue;
        // A fallback read it: what it finds is less sure, and the caller should know.
        if (i > 0)
          out.warnings.push(
            `${current.name}: read by ${scanner.id} (${scanners
              .slice(0, i)
              .map((s) => s.id)
              .join(', ')} could not read it)`,
          );
        return answer;
      }
      return null;
    });
    ctx?.checkMemory();
    if (!result) {
      out.warnings.push(`${current.name}: no scanner could read it${scanners.length ? '' : ` (no ${current.type} scanner is enabled)`}`);
      continue;
    }
    out.warnings.push(...(result.warnings ?? []).map((w) => (w.startsWith(current.name) ? w : `${current.name}: ${w}`)));
    out.hits.push(...result.hits.slice(0, MAX_HITS_PER_SOURCE - out.hits.length));
    // Only one level: a source map's files are scripts, not more maps.
    if (current === source) queue.push(...(result.sources ?? []).filter((s) => s.type === 'javascript'));
  }
  return out;
}

export async function readPage(input: PageInput, ctx: TaskContext, registry = bootedRegistry()): Promise<PageOutput> {
  const { inline, bundles } = pageScripts(input.html, input.pageUrl);
  const scanned: ScannedSource[] = [];
  for (const text of inline)
    scanned.push(
      await scanSource(registry, { type: 'javascript', text, name: 'inline', pageUrl: input.pageUrl }, input.scanTimeoutMs, ctx),
    );
  return { bundles, inline: scanned };
}

export async function scanSources(input: ScanInput, ctx: TaskContext, registry = bootedRegistry()): Promise<ScannedSource[]> {
  const scanned: ScannedSource[] = [];
  for (const source of input.sources) scanned.push(await scanSource(registry, source, input.scanTimeoutMs, ctx));
  return scanned;
}

export const READ_PAGE_TASK = task<typeof readPage>(import.meta.url, 'readPage');
export const SCAN_SOURCES_TASK = task<typeof scanSources>(import.meta.url, 'scanSources');
