/**
 * `srcset` parsing, rewriting and resolution (part of the URL module: a srcset is a list of URLs).
 * URLs may contain commas (image CDNs put `w_400,h_300` in the path), so a naive `split(',')`
 * breaks them; this follows the HTML candidate-parsing rules.
 */
import { absoluteUrl } from './url.ts';

export interface SrcsetCandidate {
  url: string;
  /** Raw descriptor (`480w`, `2x`) or '' when none was given. */
  descriptor: string;
}

export function parseSrcset(srcset: string): SrcsetCandidate[] {
  const candidates: SrcsetCandidate[] = [];
  let i = 0;
  while (i < srcset.length) {
    while (i < srcset.length && /[\s,]/.test(srcset[i]!)) i++;
    if (i >= srcset.length) break;
    let end = i;
    while (end < srcset.length && !/\s/.test(srcset[end]!)) end++;
    let url = srcset.slice(i, end);
    i = end;
    let descriptor = '';
    // A URL ending in commas has no descriptors; otherwise descriptors run to the next top-level comma.
    if (/,+$/.test(url)) url = url.replace(/,+$/, '');
    else {
      let depth = 0;
      while (i < srcset.length && (depth > 0 || srcset[i] !== ',')) {
        if (srcset[i] === '(') depth++;
        else if (srcset[i] === ')') depth = Math.max(0, depth - 1);
        descriptor += srcset[i];
        i++;
      }
      descriptor = descriptor.trim();
    }
    if (url) candidates.push({ url, descriptor });
  }
  return candidates;
}

export function serializeSrcset(candidates: SrcsetCandidate[]): string {
  return candidates.map((c) => (c.descriptor ? `${c.url} ${c.descriptor}` : c.url)).join(', ');
}

/** The srcset with every candidate URL resolved against `base` (unparseable ones kept as written). */
export function absoluteSrcset(srcset: string, base: string): string {
  return serializeSrcset(parseSrcset(srcset).map((c) => ({ ...c, url: absoluteUrl(c.url, base) ?? c.url })));
}

/** Width (`w`) beats density (`x`); a candidate without descriptor counts as `1x`. */
export function largestCandidate(candidates: SrcsetCandidate[]): SrcsetCandidate | null {
  let best: SrcsetCandidate | null = null;
  let bestScore = -1;
  for (const candidate of candidates) {
    const score = candidateScore(candidate.descriptor);
    if (score > bestScore) {
      best = candidate;
      bestScore = score;
    }
  }
  return best;
}

function candidateScore(descriptor: string): number {
  const width = /^(\d+)w$/i.exec(descriptor);
  if (width) return Number(width[1]) * 1000;
  const density = /^(\d*\.?\d+)x$/i.exec(descriptor);
  return density ? Number(density[1]) : 1;
}
