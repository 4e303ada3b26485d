/**
 * GFM tables for turndown. turndown-plugin-gfm's table rules read `table.rows`, which linkedom
 * does not implement, and keep header-less tables as raw HTML; these rules build the table from
 * the DOM instead: cells are converted by turndown, stored, and assembled by the table rule.
 *
 * The first row is the header row (a header-less table promotes its first row, which reads better
 * than an empty header); colspans repeat empty cells; rows are padded to the widest row; a table
 * with at most one non-empty cell per row is layout (or a form), not data, and renders as its
 * content, which may be nothing.
 */
import type TurndownService from 'turndown';

const MAX_COLSPAN = 50;

/** Rows of this table, not of tables nested in its cells. */
function ownRows(table: Element): Element[] {
  return [...table.querySelectorAll('tr')].filter((tr) => tr.closest('table') === table);
}

const cellsOf = (row: Element) => [...row.children].filter((c) => c.tagName === 'TD' || c.tagName === 'TH');

/** A cell must stay on one line, and a pipe inside it would end the cell (turndown never escapes one). */
export function tableCellText(content: string): string {
  return content
    .trim()
    .replace(/\s*\n+\s*/g, ' ')
    .replace(/\|/g, '\\|');
}

export function markdownTable(rows: string[][]): string {
  const width = Math.max(...rows.map((r) => r.length));
  const line = (cells: string[]) => `| ${Array.from({ length: width }, (_, i) => tableCellText(cells[i] ?? '')).join(' | ')} |`;
  const [header = [], ...body] = rows;
  const separator = `| ${Array<string>(width).fill('---').join(' | ')} |`;
  return [line(header), separator, ...body.map(line)].join('\n');
}

export function tableRules(service: TurndownService): void {
  const converted = new WeakMap<Node, string>();
  service.addRule('tableCell', {
    filter: ['th', 'td', 'caption'],
    replacement: (content, node) => {
      // Kept as blocks: a layout table renders its cells as they are.
      converted.set(node, content.trim());
      return '';
    },
  });
  service.addRule('tableParts', { filter: ['tr', 'thead', 'tbody', 'tfoot'], replacement: () => '' });
  service.addRule('table', {
    filter: 'table',
    replacement: (_content, node) => {
      const rows = ownRows(node)
        .map((row) =>
          cellsOf(row).flatMap((cell) => {
            const span = Math.min(MAX_COLSPAN, Math.max(1, Number(cell.getAttribute('colspan')) || 1));
            return [converted.get(cell) ?? '', ...Array<string>(span - 1).fill('')];
          }),
        )
        .filter((cells) => cells.length > 0);
      if (rows.length === 0) return '';
      const caption = [...node.children].find((c) => c.tagName === 'CAPTION');
      const captionText = caption ? tableCellText(converted.get(caption) ?? '') : '';
      const isLayout = rows.every((cells) => cells.filter(Boolean).length <= 1);
      const body = isLayout ? rows.flat().filter(Boolean).join('\n\n') : markdownTable(rows);
      return body || captionText ? `\n\n${[captionText, body].filter(Boolean).join('\n\n')}\n\n` : '';
    },
  });
}
