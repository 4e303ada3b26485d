/**
 * Tidies mammoth's HTML for the pipeline: footnote and endnote references become plain "[1]"
 * markers and the notes a titled list at the end (without mammoth's "↑" back-links, which would
 * turn into links to the file itself), the first row of every table becomes its header row, and
 * images (which have no URL a reader could follow) are dropped.
 */
import { parseHtmlFragment } from '../../../core/kit.ts';

const NOTE_KINDS = [
  { prefix: 'footnote', title: 'Footnotes' },
  { prefix: 'endnote', title: 'Endnotes' },
];

function unwrap(element: Element): void {
  element.replaceWith(...element.childNodes);
}

function headerRow(table: Element): void {
  if (table.querySelector(':scope > thead')) return;
  const first = table.querySelector('tr');
  if (!first || first.closest('table') !== table) return;
  const doc = table.ownerDocument;
  const thead = doc.createElement('thead');
  const row = doc.createElement('tr');
  for (const cell of [...first.children]) {
    const th = doc.createElement('th');
    th.append(...cell.childNodes);
    row.appendChild(th);
  }
  thead.appendChild(row);
  first.remove();
  table.insertBefore(thead, table.firstChild);
}

export function tidyDocxHtml(html: string): string {
  const root = parseHtmlFragment(html);
  for (const img of [...root.querySelectorAll('img')]) img.remove();
  for (const { prefix, title } of NOTE_KINDS) {
    for (const back of [...root.querySelectorAll(`a[href^="#${prefix}-ref-"]`)]) back.remove();
    for (const ref of [...root.querySelectorAll(`a[href^="#${prefix}-"]`)]) unwrap(ref);
    const list = root.querySelector(`li[id^="${prefix}-"]`)?.parentElement;
    if (list) {
      const heading = root.ownerDocument.createElement('h2');
      heading.textContent = title;
      list.before(heading);
    }
  }
  for (const table of [...root.querySelectorAll('table')]) headerRow(table);
  return root.innerHTML;
}
