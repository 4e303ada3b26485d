/**
 * What a CSV file does not say about its delimiter (its encoding: shared/decode.ts): the candidate
 * that splits the first records into the same number of fields most consistently, quotes respected.
 */
const SAMPLE_CHARS = 64 * 1024;
const SAMPLE_RECORDS = 50;
export const DELIMITERS = [',', ';', '\t', '|'] as const;

/** Field counts of the first records for one delimiter, honouring quoted fields (which may span lines). */
function fieldCounts(sample: string, delimiter: string): number[] {
  const counts: number[] = [];
  let fields = 1;
  let quoted = false;
  let empty = true;
  for (let i = 0; i < sample.length && counts.length < SAMPLE_RECORDS; i++) {
    const c = sample[i]!;
    if (c === '"') {
      quoted = !quoted;
      empty = false;
    } else if (!quoted && c === delimiter) {
      fields++;
      empty = false;
    } else if (!quoted && (c === '\n' || c === '\r')) {
      if (c === '\r' && sample[i + 1] === '\n') i++;
      if (!empty) counts.push(fields);
      fields = 1;
      empty = true;
    } else if (c !== ' ') empty = false;
  }
  // The last record of a cut sample may be partial; only a whole file's last line counts.
  if (!empty && sample.length < SAMPLE_CHARS) counts.push(fields);
  return counts;
}

/** The delimiter whose field count is most consistent (and, at a tie, largest); `preferred` wins ties (TSV files). */
export function sniffDelimiter(text: string, preferred?: string): string {
  const sample = text.slice(0, SAMPLE_CHARS);
  let best = { delimiter: preferred ?? ',', consistency: 0, fields: 1 };
  const candidates = preferred ? [preferred, ...DELIMITERS.filter((d) => d !== preferred)] : DELIMITERS;
  for (const delimiter of candidates) {
    const counts = fieldCounts(sample, delimiter);
    if (counts.length === 0) continue;
    const frequency = new Map<number, number>();
    for (const n of counts) frequency.set(n, (frequency.get(n) ?? 0) + 1);
    const [fields, times] = [...frequency.entries()].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0]!;
    if (fields < 2) continue;
    const consistency = times / counts.length;
    if (consistency > best.consistency + 1e-9 || (Math.abs(consistency - best.consistency) < 1e-9 && fields > best.fields)) {
      best = { delimiter, consistency, fields };
    }
  }
  return best.delimiter;
}
