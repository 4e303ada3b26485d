/**
 * Word counting as the text streams past, for the word count of every scraped page: the same words
 * as core/dom.ts countWords (`[\p{L}\p{N}_]+`, joined by one `'`, `’` or `-`), counted character by
 * character over the content's text nodes in one sweep of linkedom's node list (core/dom-links.ts),
 * where building the content's text, then an array of all its words, cost more than the walk.
 */
import { END, NEXT, VALUE } from './dom-links.ts';

const WORDISH = /[\p{L}\p{N}]/u;
/** Per BMP code unit: 0 not yet known, 1 a word character, 2 not. */
const known = new Uint8Array(0x10000);

function isWordChar(c: number): boolean {
  if (c < 128) return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;
  let k = known[c]!;
  if (k === 0) known[c] = k = WORDISH.test(String.fromCharCode(c)) ? 1 : 2;
  return k === 1;
}

const isJoiner = (c: number): boolean => c === 39 || c === 45 || c === 0x2019;

/** Counts words in text fed in pieces; `gap()` marks a break between pieces (a block boundary). */
export class WordCounter {
  count = 0;
  /** The last character was a word character. */
  private inWord = false;
  /** The last character was a joiner right after a word character: a word character continues that word. */
  private joined = false;

  feed(text: string): void {
    let { count, inWord, joined } = this;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      let word: boolean;
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
        const low = text.charCodeAt(i + 1);
        if (low >= 0xdc00 && low <= 0xdfff) {
          // an astral code point: one character, as the `u` flag reads it
          word = WORDISH.test(text.slice(i, i + 2));
          i++;
        } else word = false;
      } else word = isWordChar(c);
      if (word) {
        if (!inWord && !joined) count++;
        inWord = true;
        joined = false;
      } else {
        joined = inWord && isJoiner(c);
        inWord = false;
      }
    }
    this.count = count;
    this.inWord = inWord;
    this.joined = joined;
  }

  gap(): void {
    this.inWord = false;
    this.joined = false;
  }
}

type Linked = Record<symbol, any> & { nodeType: number; localName?: string };
const ELEMENT = 1;
const TEXT = 3;
const CDATA = 4;
/** linkedom's node type for an element's end marker. */
const NODE_END = -1;

/**
 * The words of `root`'s text as textOf (core/dom.ts) reads it, `root` an element: text nodes in
 * order, a break at each block's start and end and before a table cell, `<pre>` read whole,
 * skipped elements passed over. `tagOf`, `blocks` and `skipped` are core/dom.ts's.
 */
export function countElementWords(
  root: Element,
  tagOf: (el: Element) => string,
  blocks: ReadonlySet<string>,
  skipped: ReadonlySet<string>,
): number {
  const counter = new WordCounter();
  // block flags of the open elements (the root's included), closed at their end markers
  const open: boolean[] = [];
  const stop = (root as unknown as Linked)[END];
  for (let node: Linked = root as unknown as Linked; node && node !== stop; ) {
    const type = node.nodeType;
    if (type === TEXT) counter.feed(node[VALUE] ?? '');
    else if (type === ELEMENT) {
      const tag = tagOf(node as unknown as Element);
      if (skipped.has(tag) || tag === 'PRE') {
        if (tag === 'PRE') {
          // (its text whole, as textContent joins it: every text node below, in order)
          counter.gap();
          for (let t: Linked = node[NEXT], end = node[END]; t !== end; t = t[NEXT])
            if (t.nodeType === TEXT || t.nodeType === CDATA) counter.feed(t[VALUE] ?? '');
          counter.gap();
        }
        if (node === (root as unknown as Linked)) break;
        node = node[END][NEXT];
        continue;
      }
      const block = blocks.has(tag);
      if (block || tag === 'TD' || tag === 'TH') counter.gap();
      open.push(block);
    } else if (type === NODE_END) {
      if (open.pop()) counter.gap();
    }
    node = node[NEXT];
  }
  return counter.count;
}
