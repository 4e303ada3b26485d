/**
 * Scoring and reporting for the extraction benchmark: per-group summaries (all, source,
 * source/type, wcxb type), the printed table and the per-page diagnostics TSV.
 */
import type { Scorer, ScoreRow, Summary, Truth } from './extraction-data.ts';

export interface SystemResult {
  name: string;
  rows: ScoreRow[];
  /** Milliseconds spent in the timed path, over all pages. */
  ms: number;
}

export type GroupSummaries = Record<string, Summary>;

/** Summaries for `all`, each source, each source/type. */
export function groupSummaries(scorer: Scorer, rows: ScoreRow[]): GroupSummaries {
  const groups = new Map<string, ScoreRow[]>([['all', rows]]);
  for (const r of rows) {
    for (const key of [r.source, `${r.source}/${r.type}`]) {
      if (!groups.has(key)) groups.set(key, []);
      groups.get(key)!.push(r);
    }
  }
  const keys = [...groups.keys()].sort((a, b) => (a === 'all' ? -1 : b === 'all' ? 1 : a.localeCompare(b)));
  return Object.fromEntries(keys.map((k) => [k, scorer.summarize(groups.get(k)!)]));
}

const f3 = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : '  -  ');

export function printTable(systems: Array<{ name: string; groups: GroupSummaries }>): void {
  const keys = [...new Set(systems.flatMap((s) => Object.keys(s.groups)))];
  const head = ['group'.padEnd(34), ...systems.map((s) => `${s.name}: F1    P     R     empty`.padEnd(36))].join(' ');
  console.log(head);
  for (const k of keys) {
    const cells = systems.map((s) => {
      const g = s.groups[k];
      return g
        ? `${' '.repeat(s.name.length + 2)}${f3(g.f1)} ${f3(g.precision)} ${f3(g.recall)} ${String(g.empty).padStart(3)}/${g.pages}`.padEnd(
            36,
          )
        : ''.padEnd(36);
    });
    const label = k.includes('/') ? `  ${k}` : k;
    console.log([label.padEnd(34), ...cells].join(' '));
  }
}

/** Precision, recall and F1 of one page, from its token counts. */
export const pageF1 = (r: ScoreRow) => {
  const p = r.fp === 0 && r.fn === 0 ? 1 : r.tp + r.fp === 0 ? 0 : r.tp / (r.tp + r.fp);
  const rc = r.fp === 0 && r.fn === 0 ? 1 : r.tp + r.fn === 0 ? 0 : r.tp / (r.tp + r.fn);
  return { p, r: rc, f1: p + rc > 0 ? (2 * p * rc) / (p + rc) : 0 };
};

/** One line per page: id, type, Trawl P/R/F1 and token counts, baseline F1, sorted worst first. */
export function perDocTsv(gt: Record<string, Truth>, trawl: ScoreRow[], baseline?: ScoreRow[]): string {
  const base = new Map((baseline ?? []).map((r) => [r.id, pageF1(r).f1]));
  const lines = trawl
    .map((r) => ({ r, s: pageF1(r) }))
    .sort((a, b) => a.s.f1 - b.s.f1)
    .map(({ r, s }) =>
      [
        r.id,
        gt[r.id]!.type,
        s.p.toFixed(3),
        s.r.toFixed(3),
        s.f1.toFixed(3),
        base.has(r.id) ? base.get(r.id)!.toFixed(3) : '',
        r.predTokens,
        r.trueTokens,
      ].join('\t'),
    );
  return `${['id\ttype\tprecision\trecall\tf1\tbaseline_f1\tpred_tokens\ttrue_tokens', ...lines].join('\n')}\n`;
}
