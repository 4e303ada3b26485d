/**
 * The workbook's own description of its sheets (`xl/workbook.xml` and its relationships): names,
 * visibility and tab order, and the part each sheet lives in. Read here rather than trusted to the
 * streaming reader, which names sheets wrongly when a writer uses absolute relationship targets.
 * Also the entry order the streaming reader needs: every part a sheet refers to before the sheets.
 */
import { readXmlPart } from '../shared/ooxml.ts';
import type { ZipArchive } from '../shared/zip.ts';

export interface SheetInfo {
  name: string;
  hidden: boolean;
  /** Position among the workbook's tabs. */
  order: number;
  /** Zip entry of the sheet, e.g. `xl/worksheets/sheet1.xml`. */
  path: string;
}

type Xml = Record<string, unknown>;
const list = (v: unknown): Xml[] => (Array.isArray(v) ? (v as Xml[]) : v && typeof v === 'object' ? [v as Xml] : []);

/** Relationship targets are relative to the workbook part (`worksheets/sheet1.xml`) or absolute (`/xl/…`). */
function partPath(target: string): string {
  return decodeURIComponent(new URL(target, 'zip:///xl/workbook.xml').pathname.slice(1));
}

export function readSheets(archive: ZipArchive): SheetInfo[] {
  const attributes = { ignoreAttributes: false, attributeNamePrefix: '' };
  const workbook = (readXmlPart(archive, 'xl/workbook.xml', attributes)?.workbook ?? {}) as Xml;
  const rels = (readXmlPart(archive, 'xl/_rels/workbook.xml.rels', attributes)?.Relationships ?? {}) as Xml;
  const targets = new Map(list(rels.Relationship).map((r) => [String(r.Id), partPath(String(r.Target ?? ''))]));
  return list((workbook.sheets as Xml | undefined)?.sheet).map((sheet, order) => ({
    name: String(sheet.name ?? `Sheet ${order + 1}`),
    hidden: sheet.state === 'hidden' || sheet.state === 'veryHidden',
    order,
    path: targets.get(String(sheet.id)) ?? '',
  }));
}

const FIRST = [
  '[Content_Types].xml',
  '_rels/.rels',
  'xl/_rels/workbook.xml.rels',
  'xl/workbook.xml',
  'xl/sharedStrings.xml',
  'xl/styles.xml',
];

/** Rank of an entry in the order the streaming reader needs: workbook parts, then the rest, then sheets in tab order. */
export function entryRank(sheets: SheetInfo[]): (name: string) => number {
  const sheetOrder = new Map(sheets.map((s) => [s.path, s.order]));
  return (name) => {
    const first = FIRST.indexOf(name);
    if (first >= 0) return first;
    const order = sheetOrder.get(name);
    if (order !== undefined) return 1000 + order;
    return name.startsWith('xl/worksheets/sheet') ? 100_000 : 100;
  };
}
