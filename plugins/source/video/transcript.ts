/**
 * Captions: which track to read (the page's language, then English, then the first; people's
 * captions before automatic ones in the same language) and the timed-text formats the caption
 * endpoint answers with: `<transcript><text start dur>` (srv1), `<timedtext format="3"><p t d>`
 * (srv3) and JSON (`json3`, `events[].segs[].utf8`).
 */
import type { CaptionTrack } from './player.ts';

export interface Cue {
  /** Seconds from the start. */
  start: number;
  text: string;
}

const base = (code: string) => code.toLowerCase().split(/[-_]/)[0]!;

export function chooseTrack(tracks: CaptionTrack[], pageLanguage: string | null): CaptionTrack | null {
  const page = pageLanguage?.toLowerCase() ?? '';
  const human = (t: CaptionTrack) => t.kind !== 'asr';
  const tests: Array<(t: CaptionTrack) => boolean> = [
    (t) => t.languageCode.toLowerCase() === page && human(t),
    (t) => base(t.languageCode) === base(page) && human(t),
    (t) => base(t.languageCode) === base(page),
    (t) => base(t.languageCode) === 'en' && human(t),
    (t) => base(t.languageCode) === 'en',
  ];
  for (const test of page ? tests : tests.slice(3)) {
    const found = tracks.find(test);
    if (found) return found;
  }
  return tracks[0] ?? null;
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] === '#') {
      const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED[ref.toLowerCase()] ?? whole;
  });
}

/** Cue text: inner tags dropped, entities decoded (srv1 encodes them twice: `&amp;#39;`), one line. */
function cueText(raw: string): string {
  let text = decodeEntities(raw.replace(/<[^>]*>/g, ''));
  if (/&(#x?[0-9a-f]+|[a-z]+);/i.test(text)) text = decodeEntities(text);
  return text.replace(/\s+/g, ' ').trim();
}

const attribute = (attrs: string, name: string) => new RegExp(`\\b${name}="([^"]*)"`).exec(attrs)?.[1];

/**
 * `<tag attrs>inner</tag>` elements in order, found with indexOf so that hostile input (many
 * openings, no closings) costs linear time rather than a regex's quadratic backtracking.
 */
function* elements(xml: string, tag: string): Generator<{ attrs: string; inner: string }> {
  const close = `</${tag}>`;
  for (let at = xml.indexOf(`<${tag}`); at >= 0; at = xml.indexOf(`<${tag}`, at)) {
    const next = xml[at + tag.length + 1];
    const openEnd = xml.indexOf('>', at);
    if (openEnd < 0) return;
    // `<text`/`<p` must be the whole tag name (not `<para`).
    if (next !== '>' && next !== ' ' && next !== '\t' && next !== '\n') {
      at = openEnd;
      continue;
    }
    const end = xml.indexOf(close, openEnd);
    if (end < 0) return;
    yield { attrs: xml.slice(at + tag.length + 1, openEnd), inner: xml.slice(openEnd + 1, end) };
    at = end + close.length;
  }
}

export function parseCaptions(body: string): Cue[] {
  const trimmed = body.trim();
  const cues: Cue[] = [];
  if (trimmed.startsWith('{')) {
    const events = (JSON.parse(trimmed) as { events?: Array<{ tStartMs?: number; segs?: Array<{ utf8?: string }> }> }).events ?? [];
    for (const event of events) {
      const text = (event.segs ?? [])
        .map((s) => s.utf8 ?? '')
        .join('')
        .replace(/\s+/g, ' ')
        .trim();
      if (text) cues.push({ start: (event.tStartMs ?? 0) / 1000, text });
    }
    return cues;
  }
  for (const { attrs, inner } of elements(trimmed, 'text')) {
    const text = cueText(inner);
    if (text) cues.push({ start: Number(attribute(attrs, 'start') ?? 0), text });
  }
  if (cues.length) return cues;
  for (const { attrs, inner } of elements(trimmed, 'p')) {
    const text = cueText(inner);
    if (text) cues.push({ start: Number(attribute(attrs, 't') ?? 0) / 1000, text });
  }
  return cues;
}

/** `75` → `1:15`, `3725` → `1:02:05`. */
export function clock(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${rest}` : `${m}:${rest}`;
}
