/**
 * scanner.javascript: request targets read from the syntax tree of a script (acorn). A script that
 * is not valid ECMAScript (a syntax error, non-standard syntax in an inline script, a bundle cut at
 * the size cap) is read again by acorn's error-tolerant parser; when even that mostly fails, or the
 * script is over `maxBytes`, the scanner declines and the string scanner after it takes the source.
 * Found: the URL of `fetch`, XHR `open`, axios/ky/jQuery/HttpClient calls, `new WebSocket` and
 * `EventSource`, `sendBeacon`, GraphQL clients and `url:`-like options (position `request`), and
 * every other URL-like string or template literal (position `literal`).
 */
import { parse, type Program } from 'acorn';
import { isDummy, parse as parseLoose } from 'acorn-loose';
import { full } from 'acorn-walk';
import { z } from 'zod';
import { definePlugin } from '../../../core/kit.ts';
import type { ScanHit, ScanResult, ScanSource } from '../../../core/kit.ts';
import { literalLike, requestLike } from '../shared/patterns.ts';
import { collect } from './collect.ts';
import { valuesOf } from './values.ts';

const options = z.strictObject({
  maxBytes: z
    .number()
    .int()
    .positive()
    .default(8 * 1024 * 1024)
    .describe('Larger scripts go to the string scanner (a syntax tree takes ~10x the text in memory).'),
  maxDummyShare: z
    .number()
    .min(0)
    .max(1)
    .default(0.02)
    .describe(
      'The tolerant parse is given up (string scanner) when more than this share of its nodes are placeholders for unreadable code.',
    ),
});

const STRICT = {
  ecmaVersion: 'latest',
  allowHashBang: true,
  allowReturnOutsideFunction: true,
  allowImportExportEverywhere: true,
  allowAwaitOutsideFunction: true,
} as const;

/**
 * The tree: as a script (which, with import/export allowed everywhere, also reads modules, and
 * takes sloppy-mode code a module refuses), then as a module (its strict-mode rules), then
 * tolerant; null when nothing usable comes out.
 */
function parseScript(text: string, maxDummyShare: number): { program: Program; warning?: string } | null {
  for (const sourceType of ['script', 'module'] as const) {
    try {
      return { program: parse(text, { ...STRICT, sourceType }) };
    } catch (err) {
      if (sourceType === 'module') {
        let program: Program;
        try {
          program = parseLoose(text, { ecmaVersion: 'latest', sourceType: 'script', allowHashBang: true });
        } catch {
          return null;
        }
        let nodes = 0;
        let dummies = 0;
        full(program, (node) => {
          nodes++;
          if (node.type === 'Identifier' && isDummy(node)) dummies++;
        });
        if (dummies > 8 + nodes * maxDummyShare) return null;
        return { program, warning: `read by the tolerant parser: ${(err as Error).message}` };
      }
    }
  }
  return null;
}

/** 1-based line numbers of offsets, from one index of line starts. */
function lineFinder(text: string): (offset: number) => number {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
}

/** Sorted, merged `[start, end)` ranges. */
function merged(ranges: Array<[number, number]>): Array<[number, number]> {
  ranges.sort((a, b) => a[0] - b[0]);
  const out: Array<[number, number]> = [];
  for (const range of ranges) {
    const last = out[out.length - 1];
    if (last && range[0] < last[1]) last[1] = Math.max(last[1], range[1]);
    else out.push([...range]);
  }
  return out;
}

export function scanJavaScript(source: ScanSource, maxDummyShare: number): ScanResult | null {
  const parsed = parseScript(source.text, maxDummyShare);
  if (!parsed) return null;
  const { targets, strings, scopes, navigation } = collect(parsed.program);
  const line = lineFinder(source.text);
  const hits: ScanHit[] = [];
  const taken: Array<[number, number]> = [];
  const byStart = new Map<number, ScanHit[]>();
  for (const { item: target, scope } of targets) {
    const known = byStart.get(target.node.start);
    // `{uri}` of `new ApolloClient({uri})` is met as an option first, then as the client's.
    if (known) {
      for (const hit of known) {
        if (hit.api === 'client') hit.api = target.api;
        if (!target.held) hit.position = 'request';
      }
      continue;
    }
    const found = valuesOf(target.node, scopes, scope)
      .filter((value) => requestLike(value, target.bare))
      .map((value): ScanHit => ({ value, position: target.held ? 'option' : 'request', api: target.api, line: line(target.node.start) }));
    if (!found.length) continue;
    byStart.set(target.node.start, found);
    taken.push([target.node.start, target.node.end]);
    hits.push(...found);
  }
  // Outermost first: `"/api/" + id` is one value, not its parts; nothing inside a request target counts twice.
  const requests = merged(taken);
  strings.sort((a, b) => a.item.start - b.item.start || b.item.end - a.item.end);
  let claimedEnd = -1;
  let r = 0;
  for (const { item: node, scope } of strings) {
    if (node.start < claimedEnd || navigation.has(node.start)) continue;
    while (r < requests.length && requests[r]![1] <= node.start) r++;
    if (r < requests.length && requests[r]![0] <= node.start) continue;
    const values = valuesOf(node, scopes, scope).filter(literalLike);
    if (!values.length) continue;
    claimedEnd = node.end;
    hits.push(...values.map((value): ScanHit => ({ value, position: 'literal', line: line(node.start) })));
  }
  return parsed.warning ? { hits, warnings: [parsed.warning] } : { hits };
}

export const javascriptScanner = definePlugin({
  kind: 'scanner',
  name: 'javascript',
  description:
    'Request targets from the syntax tree of scripts (acorn, with its error-tolerant parser as the fallback): fetch, XHR, HTTP clients, WebSocket, EventSource, GraphQL clients, URL options and literals.',
  options,
  enabledByDefault: true,
  setup: ({ maxBytes, maxDummyShare }) => ({
    reads: ['javascript'],
    scan: (source) => (source.text.length > maxBytes ? null : scanJavaScript(source, maxDummyShare)),
  }),
});
