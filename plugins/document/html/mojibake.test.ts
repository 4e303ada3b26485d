import { describe, expect, test } from 'bun:test';
import { parseHtmlDocument } from '../../../core/kit.ts';
import { mayHoldMojibake, repairMojibake } from './mojibake.ts';

// UTF-8 bytes read as Latin-1: "’" (e2 80 99) becomes "â" + two C1 controls, "®" (c2 ae) "Â®"
const latin1 = (s: string) => Array.from(new TextEncoder().encode(s), (b) => String.fromCharCode(b)).join('');

describe('repairMojibake', () => {
  test('doubly encoded text is decoded again, runs without a C1 control included', () => {
    const doc = parseHtmlDocument(
      `<html><body><div id="c"><p>${latin1('The Earth’s surface')}</p><p>${latin1('JOHNSON®, café')}</p></div></body></html>`,
    );
    const root = doc.getElementById('c')!;
    repairMojibake(root);
    expect(root.textContent).toBe('The Earth’s surfaceJOHNSON®, café');
  });

  test('real Latin-1 text without C1 controls is left alone', () => {
    const doc = parseHtmlDocument('<html><body><div id="c"><p>Ã© is not a word, nor is Â®.</p></div></body></html>');
    const root = doc.getElementById('c')!;
    repairMojibake(root);
    expect(root.textContent).toBe('Ã© is not a word, nor is Â®.');
  });

  test('markup without a C1 control (raw or as one of the five unmapped references) is not walked', () => {
    expect(mayHoldMojibake(`<p>${latin1('Earth’s')}</p>`)).toBe(true);
    expect(mayHoldMojibake('<p>Earth&#226;&#128;&#153;s</p>')).toBe(false); // &#128; is the euro sign
    expect(mayHoldMojibake('<p>&#x81; and &#157;</p>')).toBe(true);
    expect(mayHoldMojibake('<p>&#1290; &#x810;</p>')).toBe(false);
    expect(mayHoldMojibake('<p>&#129abc</p>')).toBe(true);
    expect(mayHoldMojibake('<p>Ã© is not a word, nor is Â®.</p>')).toBe(false);
  });
});
