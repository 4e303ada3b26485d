/**
 * A very small HTML builder for plugins that build their content as HTML (document parsers, the
 * video source): every type renders its content as HTML so all formats work on it, and text from
 * files must never become markup.
 */

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ESCAPES[c]!);
}

/** Escaped text whose line breaks survive as `<br>` (cells and descriptions with newlines). */
export function textWithBreaks(text: string): string {
  return escapeHtml(text).replace(/\r\n?|\n/g, '<br>');
}

export function element(tag: string, innerHtml: string, attributes: Record<string, string | undefined> = {}): string {
  const attrs = Object.entries(attributes)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => ` ${name}="${escapeHtml(value!)}"`)
    .join('');
  return `<${tag}${attrs}>${innerHtml}</${tag}>`;
}

export const paragraph = (text: string) => element('p', textWithBreaks(text));
export const heading = (level: number, text: string) => element(`h${Math.min(6, Math.max(1, level))}`, escapeHtml(text));
/** A remark of Trawl's own inside the content (a limit that applied, a missing transcript). */
export const note = (text: string) => element('p', element('em', escapeHtml(text)));

/**
 * A data table from cell HTML; the first row becomes the header row (`<thead>`/`<th>`), which is
 * how every document type presents tables (GFM needs one). Rows are padded to the widest row.
 */
export function htmlTable(rows: readonly (readonly string[])[]): string {
  if (rows.length === 0) return '';
  const width = rows.reduce((max, r) => Math.max(max, r.length), 0);
  const row = (cells: readonly string[], tag: 'th' | 'td') =>
    `<tr>${Array.from({ length: width }, (_, i) => `<${tag}>${cells[i] ?? ''}</${tag}>`).join('')}</tr>`;
  const [header = [], ...body] = rows;
  return `<table><thead>${row(header, 'th')}</thead><tbody>${body.map((r) => row(r, 'td')).join('')}</tbody></table>`;
}
