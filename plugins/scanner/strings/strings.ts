/**
 * scanner.strings: the fallback for scripts no parser reads (too large, not JavaScript, or broken
 * past the tolerant parser). It reads quoted strings and template literals straight from the text
 * with linear regular expressions; what stands just before a string tells a request position
 * (`fetch(`, `.get(`, `new WebSocket(`, `.open("POST",`, `url:`), everything else is a literal.
 * Without a syntax tree a quote inside a regular expression or comment can shift what is read as
 * a string, which is why it comes after the parser scanner.
 */
import { z } from 'zod';
import { definePlugin } from '../../../core/kit.ts';
import type { ScanHit, ScanResult, ScanSource } from '../../../core/kit.ts';
import { CLIENT_FUNCTIONS, CLIENT_METHODS, HTTP_METHODS, literalLike, placeholder, REQUEST_KEY, requestLike } from '../shared/patterns.ts';

const options = z.strictObject({
  maxHits: z.number().int().positive().default(20_000).describe('Values read from one source at most.'),
});

const STRING = /"((?:[^"\\\n]|\\.){1,2048})"|'((?:[^'\\\n]|\\.){1,2048})'|`((?:[^`\\]|\\.){1,2048})`/g;
/** What stands before a string in a request position; the name or method is checked against the shared lists. */
const CALL_BEFORE = /(?:new\s+([\w$]+)|\.([\w$]+)|(?:^|[^\w$.])([\w$]+))\s*\(\s*$/;
const OPEN_BEFORE = /\.open\(\s*["'](\w+)["']\s*,\s*$/;
const KEY_BEFORE = /["']?([\w$]+)["']?\s*[:=]\s*$/;
const LOOK_BACK = 48;

function unescapeLiteral(text: string): string {
  return text
    .replace(/\\u\{?([0-9a-fA-F]{2,6})\}?|\\x([0-9a-fA-F]{2})/g, (_, u: string | undefined, x: string | undefined) =>
      String.fromCodePoint(parseInt(u ?? x!, 16)),
    )
    .replace(/\\(.)/g, '$1');
}

/** The API making a request with the string that follows `before`, `option` for a plain `url:`, or null when it is no request position. */
export function positionOf(before: string): NonNullable<ScanHit['api']> | 'option' | null {
  const open = OPEN_BEFORE.exec(before);
  if (open && HTTP_METHODS.has(open[1]!.toUpperCase())) return 'xhr';
  const call = CALL_BEFORE.exec(before);
  if (call) {
    const [, constructed, method, fn] = call;
    if (constructed === 'WebSocket' || fn === 'io') return 'websocket';
    if (constructed === 'EventSource') return 'eventsource';
    if (method === 'sendBeacon') return 'beacon';
    if (fn === 'fetch' || method === 'fetch' || constructed === 'Request') return 'fetch';
    if ((method && CLIENT_METHODS.has(method)) || (fn && CLIENT_FUNCTIONS.has(fn))) return 'client';
  }
  const key = KEY_BEFORE.exec(before);
  if (!key || !REQUEST_KEY.test(key[1]!)) return null;
  return /^(?:url|uri|href)$/i.test(key[1]!) ? 'option' : 'client';
}

export function scanStrings(source: ScanSource, maxHits: number): ScanResult {
  const { text } = source;
  const hits: ScanHit[] = [];
  let line = 1;
  let counted = 0;
  for (const match of text.matchAll(STRING)) {
    const raw = match[1] ?? match[2] ?? match[3]!;
    const value = unescapeLiteral(
      match[3] === undefined ? raw : raw.replace(/\$\{([^}]{0,200})\}/g, (_, expression: string) => placeholder(expression)),
    );
    const request = positionOf(text.slice(Math.max(0, match.index - LOOK_BACK), match.index));
    if (request ? !requestLike(value) : !literalLike(value)) continue;
    for (let i = text.indexOf('\n', counted); i !== -1 && i < match.index; i = text.indexOf('\n', i + 1)) {
      line++;
      counted = i + 1;
    }
    hits.push(
      request === 'option'
        ? { value, position: 'option', api: 'client', line }
        : request
          ? { value, position: 'request', api: request, line }
          : { value, position: 'literal', line },
    );
    if (hits.length >= maxHits) return { hits, warnings: [`stopped after ${maxHits} values`] };
  }
  return { hits };
}

export const stringsScanner = definePlugin({
  kind: 'scanner',
  name: 'strings',
  description:
    'Fallback scanner: URL-like strings and template literals read from the text of scripts no parser could read, request positions told by what precedes them.',
  options,
  enabledByDefault: true,
  setup: ({ maxHits }) => ({
    reads: ['javascript'],
    scan: (source) => scanStrings(source, maxHits),
  }),
});
