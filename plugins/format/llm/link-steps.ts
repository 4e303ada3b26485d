/**
 * The link steps of the llm pipeline: inline links become their text and their targets move to
 * one links section at the end, each target once, those on the page's own site as a path.
 * A URL in the middle of a sentence costs a dozen tokens and splits the sentence for the model.
 */
import { mapProse } from './prose.ts';
import { withoutHash } from '../../../core/kit.ts';

export interface LlmLink {
  text: string;
  url: string;
}

/** `[text](url "title")`, not an image and not escaped; the text holds no unescaped brackets. */
const LINK = /(?<![!\\])\[((?:\\.|[^[\]\\])*)\]\((<(?:\\.|[^<>\\\n])*>|(?:\\.|[^\s()\\])+)(?:\s+"(?:\\.|[^"\\])*")?\)/g;

const destination = (raw: string) => (raw.startsWith('<') ? raw.slice(1, -1) : raw).replace(/\\([()<>])/g, '$1');

/**
 * Inline links become their text; each one is collected, in reading order, for the links
 * section. The collected text keeps its markdown (escapes, emphasis): the text steps that run
 * later clean it as they clean the body.
 */
export function extractLinks(markdown: string): { body: string; links: LlmLink[] } {
  const links: LlmLink[] = [];
  const body = mapProse(markdown, (prose) =>
    prose.replace(LINK, (_match, text: string, url: string) => {
      links.push({ text: text.replace(/\s+/g, ' ').trim(), url: destination(url) });
      return text;
    }),
  );
  return { body, links };
}

/**
 * Each target once (the first text that names it), without links that only jump within the
 * page (tables of contents, "back to top") or that have no text (image-only links, whose
 * target a text link next to them almost always repeats).
 */
export function dedupeLinks(links: readonly LlmLink[], pageUrl: string): LlmLink[] {
  const seen = new Set<string>([withoutHash(pageUrl)]);
  const out: LlmLink[] = [];
  for (const link of links) {
    const key = withoutHash(link.url);
    if (!link.text || seen.has(key)) continue;
    seen.add(key);
    out.push(link);
  }
  return out;
}

/** Targets on the page's own origin become paths (`/docs/setup`): the header names the origin once. */
export function shortenLinks(links: readonly LlmLink[], pageUrl: string): LlmLink[] {
  let origin: string;
  try {
    origin = new URL(pageUrl).origin;
  } catch {
    return [...links];
  }
  return links.map((link) => (link.url.startsWith(`${origin}/`) ? { ...link, url: link.url.slice(origin.length) } : link));
}

/** The links section: one `text: target` line per link, or the bare target when the text is the target. */
export function linksSection(links: readonly LlmLink[]): string {
  if (links.length === 0) return '';
  return `Links:\n${links.map((l) => (l.text === l.url ? l.url : `${l.text}: ${l.url}`)).join('\n')}`;
}
