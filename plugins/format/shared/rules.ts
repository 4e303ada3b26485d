/**
 * turndown rules that make the markdown clean: `- ` bullets with one space, links without text
 * dropped, images without a fetchable source and tracking pixels dropped, tracking parameters
 * taken off link and image URLs, fenced code with the language taken from
 * the usual highlighter classes, `~~` strikethrough and GFM task-list boxes (the gfm plugin reads
 * `input.checked`, which linkedom leaves undefined).
 */
import type TurndownService from 'turndown';
import { tagOf } from '../../../core/kit.ts';
import { isPixelImage, stripTrackingParams } from './tracking.ts';

const LANGUAGE_CLASS = /(?:^|\s)(?:language|lang|highlight-(?:source|text))-([\w+#.-]+)/i;

/** The language a highlighter marked the block with: on `<code>`, `<pre>`, or a wrapping `<div>`. */
export function codeLanguage(pre: Element): string {
  const code = pre.querySelector('code');
  for (const el of [code, pre, pre.parentElement]) {
    if (!el) continue;
    const declared = el.getAttribute('data-lang') ?? el.getAttribute('data-language');
    if (declared?.trim()) return declared.trim();
    const match = LANGUAGE_CLASS.exec(el.getAttribute('class') ?? '');
    if (match) return match[1]!;
  }
  return '';
}

export function fencedCode(code: string, language: string): string {
  const longestRun = Math.max(2, ...[...code.matchAll(/^`{3,}/gm)].map((m) => m[0].length));
  const fence = '`'.repeat(longestRun + 1);
  return `\n\n${fence}${language}\n${code.replace(/\n$/, '')}\n${fence}\n\n`;
}

/** A link wrapping these is a block (a card), not a phrase. */
const BLOCK_CONTENT = new Set([
  'P',
  'DIV',
  'H1',
  'H2',
  'H3',
  'H4',
  'H5',
  'H6',
  'UL',
  'OL',
  'TABLE',
  'SECTION',
  'ARTICLE',
  'FIGURE',
  'BLOCKQUOTE',
]);

/**
 * Does `el` hold a block element? A walk that stops at the first (a selector query here compiled
 * its fifteen alternatives anew for every link of the page).
 */
function holdsBlock(el: Element): boolean {
  let n = el.firstElementChild;
  while (n) {
    const tag = tagOf(n);
    if (BLOCK_CONTENT.has(tag)) return true;
    // (template contents are not part of the page)
    const child = tag === 'TEMPLATE' ? null : n.firstElementChild;
    if (child) {
      n = child;
      continue;
    }
    while (n && n !== el && !n.nextElementSibling) n = n.parentElement;
    n = n && n !== el ? n.nextElementSibling : null;
  }
  return false;
}

const escapeDestination = (url: string) => {
  const escaped = url.replace(/([<>()])/g, '\\$1');
  return /\s/.test(escaped) ? `<${escaped}>` : escaped;
};
const titlePart = (node: Element) => {
  const title = node.getAttribute('title')?.replace(/\s+/g, ' ').trim();
  return title ? ` "${title.replace(/"/g, '\\"')}"` : '';
};

export function contentRules(service: TurndownService): void {
  service.addRule('listItem', {
    filter: 'li',
    replacement: (content, node) => {
      const parent = node.parentElement;
      let prefix = '- ';
      if (parent?.tagName === 'OL') {
        const start = Number(parent.getAttribute('start') ?? '1');
        prefix = `${(Number.isFinite(start) ? start : 1) + [...parent.children].indexOf(node)}. `;
      }
      // An item holding paragraphs keeps a trailing newline, which makes the list loose, as turndown does.
      const isParagraph = /\n$/.test(content);
      const body = content.replace(/^\n+|\n+$/g, '') + (isParagraph ? '\n' : '');
      return prefix + body.replace(/\n(?=[^\n])/g, `\n${' '.repeat(prefix.length)}`) + (node.nextSibling ? '\n' : '');
    },
  });
  service.addRule('link', {
    filter: (node) => node.nodeName === 'A' && !!node.getAttribute('href'),
    replacement: (content, node) => {
      // Block content inside a link (cards) would break the link syntax across lines.
      const text = content
        .replace(/^#{1,6}\s+/gm, '')
        .replace(/\s*\n+\s*/g, ' ')
        .trim();
      if (!text) return '';
      const link = `[${text}](${escapeDestination(stripTrackingParams(node.getAttribute('href')!))}${titlePart(node)})`;
      return holdsBlock(node) ? `\n\n${link}\n\n` : link;
    },
  });
  service.addRule('image', {
    filter: 'img',
    replacement: (_content, node) => {
      const src = node.getAttribute('src')?.trim() ?? '';
      // Inline data: images are placeholders or kilobytes of base64: noise either way.
      if (!src || src.startsWith('data:') || isPixelImage(node)) return '';
      const alt = (node.getAttribute('alt') ?? '')
        .replace(/\s+/g, ' ')
        .trim()
        .replace(/([\\[\]])/g, '\\$1');
      return `![${alt}](${escapeDestination(stripTrackingParams(src))}${titlePart(node)})`;
    },
  });
  service.addRule('codeBlock', {
    filter: 'pre',
    replacement: (_content, node) => fencedCode(node.textContent ?? '', codeLanguage(node)),
  });
  service.addRule('strikethrough', {
    filter: (node) => node.nodeName === 'DEL' || node.nodeName === 'S' || node.nodeName === 'STRIKE',
    replacement: (content) => (content.trim() ? `~~${content}~~` : ''),
  });
  service.addRule('taskListItem', {
    filter: (node) =>
      node.nodeName === 'INPUT' && node.getAttribute('type')?.toLowerCase() === 'checkbox' && node.parentElement?.nodeName === 'LI',
    replacement: (_content, node) => {
      const spacer = /^\s/.test(node.nextSibling?.textContent ?? '') ? '' : ' ';
      return (node.hasAttribute('checked') ? '[x]' : '[ ]') + spacer;
    },
  });
}
