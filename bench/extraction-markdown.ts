/**
 * Markdown rendering for the extraction benchmark, configured as the markdown format uses it:
 * turndown + turndown-plugin-gfm on the extracted element.
 *
 * linkedom has no HTMLTableElement (tables are plain HTMLElements without `rows`), and the gfm
 * table rule reads `table.rows[0]`, so without a `rows` getter it throws on every page with a
 * table. `installTableRows` adds the getter (rows of the table, its thead/tbody/tfoot, not nested
 * tables); the markdown format needs the same shim.
 */
import TurndownService from 'turndown';
import { gfm } from 'turndown-plugin-gfm';
import { parseHtmlDocument } from '../core/dom.ts';

let installed = false;
export function installTableRows(): void {
  if (installed) return;
  installed = true;
  const proto = Object.getPrototypeOf(parseHtmlDocument('<table></table>').createElement('table'));
  if ('rows' in proto) return;
  Object.defineProperty(proto, 'rows', {
    configurable: true,
    get(this: Element) {
      if (this.tagName !== 'TABLE') return undefined;
      const rows: Element[] = [];
      for (const child of Array.from(this.children)) {
        if (child.tagName === 'TR') rows.push(child);
        else if (child.tagName === 'THEAD' || child.tagName === 'TBODY' || child.tagName === 'TFOOT') {
          for (const tr of Array.from(child.children)) if (tr.tagName === 'TR') rows.push(tr);
        }
      }
      return rows;
    },
  });
}

export function makeTurndown(): TurndownService {
  installTableRows();
  const td = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
  td.use(gfm);
  return td;
}
