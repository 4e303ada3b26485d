// A response's text decoded on first read: once, only when read, assignable, and loud when its bytes have gone to a worker.
import { describe, expect, test } from 'bun:test';
import type { FetchedResponse } from './net/response.ts';
import { responseText, textOnFirstRead } from './response-text.ts';

function pending(html: string) {
  const body = new TextEncoder().encode(html);
  const response: FetchedResponse = {
    status: 200,
    headers: {},
    body,
    finalUrl: 'https://example.com/',
    mediaType: 'text/html',
    charset: 'utf-8',
  };
  let decodes = 0;
  textOnFirstRead(response, () => {
    decodes++;
    return new TextDecoder().decode(body);
  });
  return { response, decodes: () => decodes };
}

describe('textOnFirstRead', () => {
  test('decodes on the first read only, and reads like a plain property after', () => {
    const { response, decodes } = pending('<p>héllo</p>');
    expect(decodes()).toBe(0);
    expect('text' in response).toBe(true);
    expect(response.text).toBe('<p>héllo</p>');
    expect(responseText(response)).toBe('<p>héllo</p>');
    expect({ ...response }.text).toBe('<p>héllo</p>');
    expect(decodes()).toBe(1);
    expect(Object.getOwnPropertyDescriptor(response, 'text')).toMatchObject({ value: '<p>héllo</p>', writable: true });
  });

  test('a copy made before any read carries the text too', () => {
    const { response, decodes } = pending('<p>x</p>');
    expect(structuredClone(response).text).toBe('<p>x</p>');
    expect(JSON.parse(JSON.stringify({ ...response, body: null })).text).toBe('<p>x</p>');
    expect(decodes()).toBe(1);
  });

  test('assigning or deleting it before a read never decodes', () => {
    const { response, decodes } = pending('<p>x</p>');
    response.text = 'replaced';
    expect(response.text).toBe('replaced');
    const other = pending('<p>y</p>');
    delete other.response.text;
    expect(other.response.text).toBeUndefined();
    expect(decodes() + other.decodes()).toBe(0);
  });

  test('read after its body was transferred, it fails saying so instead of answering empty text', () => {
    const { response } = pending('<p>x</p>');
    structuredClone(response.body.buffer, { transfer: [response.body.buffer as ArrayBuffer] });
    expect(() => response.text).toThrow('moved to a content worker');
  });
});
