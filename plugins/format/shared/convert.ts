/**
 * turndown's conversion of an element, run in place on linkedom: the same steps as its
 * `turndown()` (whitespace collapsed, children converted by the service's rules, pieces joined,
 * rules' appendices added), kept step for step so the markdown is the same, but without its costs
 * on this DOM: tag tests by set instead of array search, a blank element known from one sweep of its
 * subtree instead of 27 `getElementsByTagName` lists, children read off the node list instead of a
 * `childNodes` list per element, text nodes spared the edge-whitespace work only elements use, and
 * text without a markdown character spared the escaper's 13 regular expressions.
 * turndown 7.2.5 with patches/turndown@7.2.5.patch; plugins/format/shared/markdown.ts calls it.
 * (Its node lists and types: turndown-nodes.ts; the whitespace collapse: collapse.ts.)
 */
import TurndownService from 'turndown';
import { END, NEXT } from '../../../core/kit.ts';
import { collapseWhitespace } from './collapse.ts';
import { ATTRIBUTE, BLOCK, CDATA, ELEMENT, type Marked, NOT_BLANK_INSIDE, TEXT } from './turndown-nodes.ts';

interface Rule {
  replacement(content: string, node: Node, options: TurndownService.Options): string;
  append?: (options: TurndownService.Options) => string;
}
interface Service {
  options: TurndownService.Options & { preformattedCode?: boolean };
  rules: { forNode(node: Node): Rule; forEach(fn: (rule: Rule) => void): void };
  escape(text: string): string;
}

/** Converts `root`'s children to markdown as `service.turndown(root)` does, changing `root` as turndown changes its copy. */
export function turndownInPlace(turndown: TurndownService, root: Element): string {
  const service = turndown as unknown as Service;
  const isPre = service.options.preformattedCode ? isPreOrCode : isPreOnly;
  collapseWhitespace(root as unknown as Marked, isPre);
  const output = convertChildren(service, root as unknown as Marked);
  service.rules.forEach((rule) => {
    if (typeof rule.append === 'function') join(output, rule.append(service.options));
  });
  return output
    .join('')
    .replace(/^[\t\r\n]+/, '')
    .replace(/[\t\r\n\s]+$/, '');
}

const isPreOnly = (node: Node) => node.nodeName === 'PRE';
const isPreOrCode = (node: Node) => node.nodeName === 'PRE' || node.nodeName === 'CODE';

/** The child nodes of `parent`, in order (a list: rules may read siblings while it is converted). */
function childrenOf(parent: Marked): Marked[] {
  const out: Marked[] = [];
  const end = parent[END];
  let node: Marked | null = parent[NEXT];
  while (node && node.nodeType === ATTRIBUTE) node = node[NEXT];
  for (; node && node !== end; node = (node.nodeType === ELEMENT ? node[END] : node)[NEXT]) out.push(node);
  return out;
}

/** turndown's `process`. */
function convertChildren(service: Service, parent: Marked): string[] {
  const output: string[] = [];
  for (const node of childrenOf(parent)) {
    let replacement = '';
    node.isCode = node.nodeName === 'CODE' || (node.parentNode as unknown as Marked).isCode;
    if (node.nodeType === TEXT) replacement = node.isCode ? node.nodeValue! : escapeText(service, node.nodeValue!);
    else if (node.nodeType === ELEMENT) {
      node.isBlock = BLOCK.has(node.nodeName);
      node.isBlank = isBlank(node);
      node.flankingWhitespace = flankingWhitespace(node, service.options);
      const rule = service.rules.forNode(node);
      let content = convertChildren(service, node).join('');
      const whitespace = node.flankingWhitespace;
      if (whitespace.leading || whitespace.trailing) content = content.trim();
      replacement = whitespace.leading + rule.replacement(content, node, service.options) + whitespace.trailing;
    }
    join(output, replacement);
  }
  return output;
}

/** What turndown's escaper changes: one of these characters anywhere, or one of these at the start. */
const MARKDOWN_CHARACTER = /[\\*`[\]_]|^[-+=#~>\d]/;

function escapeText(service: Service, text: string): string {
  // (the stock escaper leaves text without them as it is; a service's own escaper always runs)
  return service.escape === TurndownService.prototype.escape && !MARKDOWN_CHARACTER.test(text) ? text : service.escape(text);
}

/** turndown's `isBlank`: no text but whitespace below, and no void or meaningful-when-blank element in or below. */
function isBlank(el: Marked): boolean {
  if (NOT_BLANK_INSIDE.has(el.nodeName)) return false;
  const end = el[END];
  for (let node: Marked = el[NEXT]; node !== end; node = node[NEXT]) {
    const type = node.nodeType;
    if (type === TEXT || type === CDATA) {
      if (/\S/.test(node.nodeValue!)) return false;
    } else if (type === ELEMENT && NOT_BLANK_INSIDE.has(node.nodeName)) return false; // (what getElementsByTagName matches)
  }
  return true;
}

function flankingWhitespace(node: Marked, options: Service['options']): { leading: string; trailing: string } {
  if (node.isBlock || (options.preformattedCode && node.isCode)) return { leading: '', trailing: '' };
  const m = /^(([ \t\r\n]*)(\s*))(?:(?=\S)[\s\S]*\S)?((\s*?)([ \t\r\n]*))$/.exec(node.textContent ?? '')!;
  let leading = m[1]!;
  let trailing = m[4]!;
  // abandon leading ASCII whitespace if left-flanked by ASCII whitespace, trailing if right-flanked
  if (m[2] && isFlankedByWhitespace(node.previousSibling, / $/, options)) leading = m[3]!;
  if (m[6] && isFlankedByWhitespace(node.nextSibling, /^ /, options)) trailing = m[5]!;
  return { leading, trailing };
}

function isFlankedByWhitespace(sibling: Node | null, test: RegExp, options: Service['options']): boolean | undefined {
  if (!sibling) return undefined;
  if (sibling.nodeType === TEXT) return test.test(sibling.nodeValue!);
  if (options.preformattedCode && sibling.nodeName === 'CODE') return false;
  if (sibling.nodeType === ELEMENT && !BLOCK.has(sibling.nodeName)) return test.test(sibling.textContent!);
  return undefined;
}

/** turndown's `join`: appends `replacement`, keeping at most two newlines where the pieces meet. */
function join(output: string[], replacement: string): void {
  const tail = output.pop() || '';
  let end = tail.length;
  while (end > 0 && tail.charCodeAt(end - 1) === 10) end--;
  const s1 = tail.substring(0, end);
  const s2 = replacement.charCodeAt(0) === 10 ? replacement.replace(/^\n*/, '') : replacement;
  const nls = Math.max(tail.length - s1.length, replacement.length - s2.length);
  const separator = '\n\n'.substring(0, nls);
  if (s1) output.push(s1);
  if (separator) output.push(separator);
  if (s2) output.push(s2);
}
