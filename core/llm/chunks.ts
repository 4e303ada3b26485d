/**
 * Long pages and language models: token counts (the provider's tokenizer when it has one, else
 * gpt-tokenizer's o200k encoding as the estimate), splitting a page's text into parts that fit a
 * token budget — at paragraph, then line, then word boundaries — and merging what the model
 * extracted from each part into one answer.
 */
export type TokenCounter = (text: string) => number;

/** A token is never shorter than a byte, so a text of at most `budget` bytes fits without counting. */
export function fitsWithoutCounting(text: string, budget: number): boolean {
  return text.length <= budget / 4 || Buffer.byteLength(text) <= budget;
}

let estimate: Promise<TokenCounter> | undefined;
/**
 * gpt-tokenizer's o200k count, the estimate for providers without a tokenizer of their own. Loaded
 * on first use: its tables take half a second to load, which a process that never asks a model
 * (a content worker, the CLI's scrape) should not pay.
 */
export function o200kCounter(): Promise<TokenCounter> {
  estimate ??= import('gpt-tokenizer').then((m) => (text: string) => m.countTokens(text));
  return estimate;
}

/** Where a too-long piece is cut next: after paragraphs, then lines, then words (each piece keeps its separator). */
const CUTS = [/(?<=\n\n)/, /(?<=\n)/, /(?<= )/];

/** `text` as consecutive pieces of at most `budget` tokens each; joined, they are `text` again. */
function pieces(text: string, budget: number, count: TokenCounter, level = 0): Array<{ text: string; tokens: number }> {
  const tokens = count(text);
  if (tokens <= budget || text.length === 1) return [{ text, tokens }];
  if (level >= CUTS.length) {
    // One "word" longer than the budget (a data URL, a minified blob): cut it by characters.
    const size = Math.max(1, Math.floor((text.length * budget) / tokens));
    const out: Array<{ text: string; tokens: number }> = [];
    for (let i = 0; i < text.length; i += size) out.push(...pieces(text.slice(i, i + size), budget, count, level));
    return out;
  }
  return text.split(CUTS[level]!).flatMap((part) => (part ? pieces(part, budget, count, level + 1) : []));
}

/**
 * `text` as parts of at most `budget` tokens each (by the pieces' counts), in order, cut at the
 * coarsest boundary that fits. At most `maxParts`; `cut` says that text was left out.
 */
export function splitText(text: string, budget: number, count: TokenCounter, maxParts: number): { parts: string[]; cut: boolean } {
  if (fitsWithoutCounting(text, budget)) return { parts: [text], cut: false };
  const parts: string[] = [];
  let current = '';
  let used = 0;
  for (const piece of pieces(text, budget, count)) {
    if (current && used + piece.tokens > budget) {
      parts.push(current.trim());
      if (parts.length === maxParts) return { parts, cut: true };
      current = '';
      used = 0;
    }
    current += piece.text;
    used += piece.tokens;
  }
  if (current.trim()) parts.push(current.trim());
  return { parts: parts.slice(0, maxParts), cut: parts.length > maxParts };
}

/** The content of a page's llm text: without its `URL:`/`Title:` header. */
export const withoutHeader = (text: string): string => text.replace(/^URL: .*(?:\nTitle: .*)?/, '').trim();

/**
 * A page's llm text (a `URL:`/`Title:` header, a blank line, the content) as parts of at most
 * `budget` tokens, each part with the header, so the model always knows which page it reads.
 */
export function pageParts(text: string, budget: number, count: TokenCounter, maxParts: number): { parts: string[]; cut: boolean } {
  const gap = text.indexOf('\n\n');
  const hasHeader = text.startsWith('URL: ') && gap > 0;
  const header = hasHeader ? text.slice(0, gap) : '';
  const body = hasHeader ? text.slice(gap + 2) : text;
  if (fitsWithoutCounting(text, budget) || count(text) <= budget) return { parts: [text], cut: false };
  const { parts, cut } = splitText(body, budget - (header ? count(header) + 2 : 0), count, maxParts);
  return { parts: parts.map((part) => (header ? `${header}\n\n${part}` : part)), cut };
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
const isEmpty = (value: unknown) => value === undefined || value === null || value === '';

/**
 * What the parts of a page yielded, as one answer: arrays joined (an item found twice kept once),
 * objects merged key by key, any other value from the first part that has one (null and "" are
 * none).
 */
export function mergeParts(values: readonly unknown[]): unknown {
  const present = values.filter((v) => v !== undefined);
  if (present.length <= 1) return present[0];
  const filled = present.filter((v) => !isEmpty(v));
  if (filled.length && filled.every(Array.isArray)) {
    const seen = new Set<string>();
    return (filled as unknown[][]).flat().filter((item) => {
      const key = JSON.stringify(item);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  }
  if (filled.length && filled.every(isPlainObject)) {
    const keys = [...new Set(filled.flatMap((v) => Object.keys(v)))];
    return Object.fromEntries(keys.map((key) => [key, mergeParts(filled.map((v) => v[key]))]));
  }
  return filled[0] ?? present[0];
}
