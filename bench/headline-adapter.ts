/**
 * The benchmark's adapter for headlines. Trawl keeps the page's headline at the top of its main
 * content (users and models need the subject), while the dev set's truth mostly leaves the title
 * out by convention (dragnet and cleaneval cut it; WCXB and Readability's pages mostly omit it).
 * Scoring the product's text as it is would count the headline as noise on those pages, so this
 * adapter removes a leading line only when it is a heading equal to the page's title (the main
 * content's own title test) and the page's truth does not open with that line. Nothing else is
 * changed; the product's output is not.
 */
import { metaLine, titleWords } from '../plugins/transform/main-content/metalines.ts';
import { pageTitle, pageTitles } from '../plugins/transform/main-content/root.ts';

const HEADINGS = new Set(['H1', 'H2', 'H3', 'H4', 'H5', 'H6']);
const collapse = (s: string | null | undefined) => (s ?? '').replace(/\s+/g, ' ').trim();

/** The content's first heading when no text comes before it, else null. */
function leadingHeading(root: Element): Element | null {
  let el: Element | null = root;
  while (el) {
    if (HEADINGS.has(el.tagName)) return el;
    let next: Element | null = null;
    for (let n = el.firstChild; n; n = n.nextSibling) {
      if (n.nodeType === 3 && collapse(n.nodeValue)) return null;
      if (n.nodeType === 1 && collapse(n.textContent)) {
        next = n as Element;
        break;
      }
    }
    el = next;
  }
  return null;
}

/** `text` (blocks joined by blank lines, as textOf gives it) without the title heading the truth leaves out. */
export function scoredText(text: string, root: Element, page: Document, truth: string): string {
  const heading = leadingHeading(root);
  const line = collapse(heading?.textContent);
  if (!line) return text;
  const words = titleWords(pageTitle(page), ...pageTitles(page));
  if (metaLine(line, words) !== 'title') return text;
  const firstTruthLine = collapse(truth.split('\n').find((l) => l.trim()));
  if (firstTruthLine === line) return text;
  const blocks = text.split('\n\n');
  return collapse(blocks[0]) === line ? blocks.slice(1).join('\n\n') : text;
}
