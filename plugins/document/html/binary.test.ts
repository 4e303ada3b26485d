// Binary bodies behind an HTML type: named by magic number or judged by their share of non-text characters, refused with a 422.
import { describe, expect, test } from 'bun:test';
import type { PageDocument } from '../../../core/kit.ts';
import { failure, testContext, testDocument } from '../../../core/testing.ts';
import { binaryBody, nonTextShare } from './binary.ts';
import { DEFAULT_PARSE_LIMITS, htmlDocument } from './html.ts';

/** A real 1×1 PNG. */
const PNG = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='), (c) =>
  c.charCodeAt(0),
);
/** Bytes no magic number names: a deterministic pseudo-random stream. */
const NOISE = Uint8Array.from({ length: 4096 }, (_, i) => (i * 7919 + (i >> 3) * 31) % 256);

function served(body: Uint8Array, text?: string): PageDocument {
  const doc = testDocument({ url: 'https://x.example/' });
  doc.response = {
    status: 200,
    headers: {},
    body,
    finalUrl: 'https://x.example/',
    mediaType: 'text/html',
    text: text ?? new TextDecoder().decode(body),
  };
  return doc;
}

describe('binaryBody', () => {
  test('a known binary format by its magic number; unnamed noise as binary of no known type', async () => {
    expect(await binaryBody(served(PNG))).toBe('png');
    expect(await binaryBody(served(new TextEncoder().encode('%PDF-1.7\n%\u00e2\u00e3\n1 0 obj')))).toBe('pdf');
    expect(await binaryBody(served(NOISE))).toBe('');
    // A damaged file is binary whether or not the sniffer can still name it.
    for (const cut of [16, 20, 33])
      expect(await binaryBody(served(Uint8Array.from([...PNG.subarray(0, cut), ...NOISE.subarray(0, 2000)])))).not.toBeNull();
  });

  test('text in any script, with a stray control character or a few undecodable bytes, is text; so is XHTML', async () => {
    const html = `<html><body><p>Привет, мир. 日本語のページ。\u0007 Café \uFFFD</p>${'<p>words and more words</p>'.repeat(20)}</body></html>`;
    expect(await binaryBody(served(new TextEncoder().encode(html)))).toBeNull();
    expect(
      await binaryBody(served(new TextEncoder().encode('<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"/>'))),
    ).toBeNull();
    expect(await binaryBody(served(new Uint8Array(0), ''))).toBeNull();
    expect(nonTextShare('ab\u0000\uFFFD')).toBe(0.5);
  });
});

describe('the html document plugin', () => {
  test('a PNG or noise served as text/html is an unsupported-content 422 saying so', async () => {
    const handler = await htmlDocument.setup(DEFAULT_PARSE_LIMITS, testContext());
    for (const [body, message] of [
      [PNG, 'binary (PNG)'],
      [NOISE, 'binary'],
    ] as const) {
      const doc = served(body);
      expect(handler.detect(doc)).toBe(true);
      const error = await failure(Promise.resolve(handler.parse(doc)));
      expect(error.status).toBe(422);
      expect(error.message).toBe(`Unsupported content: the body is ${message}, not text/html`);
      expect(doc.root).toBeNull();
    }
  });
});
