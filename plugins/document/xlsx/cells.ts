/**
 * Spreadsheet cell values as table-cell HTML: cached formula results (a formula never computed
 * shows as `=FORMULA`), dates as ISO 8601 (a date, a time, or both, as the value holds), numbers
 * without binary noise, rich text with its bold and italic runs, errors as Excel shows them.
 */
import { escapeHtml, textWithBreaks } from '../../../core/kit.ts';

type Run = { text?: string; font?: { bold?: boolean; italic?: boolean } | null };

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** Spreadsheet epoch for time-only values (Excel's day zero). */
const TIME_ONLY_DATE = '1899-12-30';

export function isoCellDate(date: Date): string {
  if (Number.isNaN(date.getTime())) return '';
  const day = `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
  const time = `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`;
  if (day === TIME_ONLY_DATE) return time;
  if (time === '00:00:00' && date.getUTCMilliseconds() === 0) return day;
  return `${day}T${time}Z`;
}

export function formatNumber(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  // 0.1 + 0.2 is stored as 0.30000000000000004; Excel shows 15 significant digits.
  return Number.isInteger(n) ? String(n) : String(Number(n.toPrecision(15)));
}

function richText(runs: Run[]): string {
  return runs
    .map((run) => {
      let html = textWithBreaks(run.text ?? '');
      if (run.font?.italic) html = `<em>${html}</em>`;
      if (run.font?.bold) html = `<strong>${html}</strong>`;
      return html;
    })
    .join('');
}

export function cellHtml(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return textWithBreaks(value);
  if (typeof value === 'number') return formatNumber(value);
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Date) return isoCellDate(value);
  if (typeof value !== 'object') return escapeHtml(String(value));
  const v = value as Record<string, unknown>;
  if ('formula' in v || 'sharedFormula' in v) {
    const result = v.result;
    if (result !== undefined && result !== null) return cellHtml(result);
    return escapeHtml(`=${String(v.formula ?? v.sharedFormula)}`);
  }
  if (Array.isArray(v.richText)) return richText(v.richText as Run[]);
  if (typeof v.error === 'string') return escapeHtml(v.error);
  if (typeof v.text === 'string' || Array.isArray((v.text as { richText?: unknown } | undefined)?.richText)) {
    return typeof v.text === 'string' ? textWithBreaks(v.text) : cellHtml(v.text);
  }
  return '';
}
