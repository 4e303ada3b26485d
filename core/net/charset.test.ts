// Charset detection and decoding: BOM, Content-Type, <meta> sniffing and the UTF-8 / windows-1252 default.
import { describe, expect, test } from 'bun:test';
import iconv from 'iconv-lite';
import { charsetFromContentType, decodeText, settleCharset, sniffMarkupCharset } from './charset.ts';

const page = (charsetTag: string, body: string) =>
  `<!doctype html><html><head>${charsetTag}<title>t</title></head><body>${body}</body></html>`;
const enc = (text: string, charset: string) => new Uint8Array(iconv.encode(text, charset));

describe('decodeText with a Content-Type charset', () => {
  const cases: Array<[string, string]> = [
    ['windows-1251', 'Привет, мир! Съешь же ещё этих мягких французских булок.'],
    ['Shift_JIS', '日本語のテキストです。カタカナも。'],
    ['GBK', '中文字符，简体汉字测试。'],
    ['gb2312', '中华人民共和国'],
    ['euc-kr', '한국어 텍스트입니다'],
    ['iso-8859-2', 'Zażółć gęślą jaźń'],
    ['iso-8859-7', 'Καλημέρα κόσμε'],
    ['koi8-r', 'Широкая электрификация южных губерний'],
    ['windows-1252', 'Café crème, “quoted” — €5'],
  ];
  test.each(cases)('decodes %s', (charset, text) => {
    const decoded = decodeText(enc(text, charset), { contentType: `text/html; charset=${charset}` });
    expect(decoded.text).toBe(text);
    expect(decoded.source).toBe('header');
  });

  test('reports the canonical charset name', () => {
    expect(decodeText(enc('Привет', 'windows-1251'), { contentType: 'text/html; charset="Windows-1251"' }).charset).toBe('windows-1251');
    expect(decodeText(enc('日本語', 'shift_jis'), { contentType: 'text/plain;charset=x-sjis' }).charset).toBe('shift_jis');
  });

  test('labels only iconv-lite knows still decode', () => {
    expect(decodeText(enc('Привет', 'cp1251'), { contentType: 'text/plain; charset=cp1251' }).text).toBe('Привет');
  });

  test('an unknown label falls back instead of throwing', () => {
    const decoded = decodeText(new TextEncoder().encode('héllo wörld'), { contentType: 'text/html; charset=no-such-charset' });
    expect(decoded).toMatchObject({ text: 'héllo wörld', charset: 'utf-8', source: 'default' });
  });
});

describe('byte-order marks', () => {
  test('UTF-16LE BOM wins over a contradicting header', () => {
    const bytes = new Uint8Array([0xff, 0xfe, ...iconv.encode('Grüße 日本', 'utf-16le')]);
    expect(decodeText(bytes, { contentType: 'text/html; charset=windows-1252' })).toEqual({
      text: 'Grüße 日本',
      charset: 'utf-16le',
      source: 'bom',
    });
  });

  test('UTF-16BE BOM', () => {
    const bytes = new Uint8Array([0xfe, 0xff, ...iconv.encode('Grüße', 'utf-16be')]);
    expect(decodeText(bytes)).toMatchObject({ text: 'Grüße', charset: 'utf-16be' });
  });

  test('UTF-8 BOM is stripped and wins over meta', () => {
    const html = page('<meta charset="windows-1251">', 'naïve');
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(html)]);
    const decoded = decodeText(bytes);
    expect(decoded.text).toBe(html);
    expect(decoded.source).toBe('bom');
  });
});

describe('markup declarations', () => {
  test('a page that declares its charset only in <meta charset>', () => {
    const html = page('<meta charset="windows-1251">', 'Главная страница');
    const decoded = decodeText(enc(html, 'windows-1251'), { contentType: 'text/html' });
    expect(decoded).toMatchObject({ text: html, charset: 'windows-1251', source: 'meta' });
  });

  test('<meta http-equiv content-type> form', () => {
    const html = page('<meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS">', 'こんにちは世界');
    expect(decodeText(enc(html, 'shift_jis'), { contentType: 'text/html' }).text).toBe(html);
  });

  test('the header wins over a contradicting <meta>', () => {
    const html = page('<meta charset="windows-1251">', 'Ελληνικά');
    const decoded = decodeText(enc(html, 'iso-8859-7'), { contentType: 'text/html; charset=iso-8859-7' });
    expect(decoded).toMatchObject({ text: html, charset: 'iso-8859-7', source: 'header' });
  });

  test('XML declaration', () => {
    const xml = '<?xml version="1.0" encoding="GBK"?><rss><title>新闻</title></rss>';
    expect(decodeText(enc(xml, 'gbk'), { contentType: 'application/rss+xml' }).text).toBe(xml);
  });

  test('meta claiming UTF-16 on ASCII-compatible bytes means UTF-8', () => {
    const html = page('<meta charset="utf-16">', 'ünïcödé');
    expect(decodeText(new TextEncoder().encode(html))).toMatchObject({ text: html, charset: 'utf-8' });
  });

  test('sniffing can be turned off for non-markup', () => {
    const json = '{"html":"<meta charset=windows-1251>","v":"ü"}';
    expect(decodeText(new TextEncoder().encode(json), { sniffMarkup: false })).toMatchObject({ text: json, charset: 'utf-8' });
  });

  test('sniffMarkupCharset ignores comments and looks only at the start', () => {
    expect(sniffMarkupCharset(new TextEncoder().encode('<!-- <meta charset="koi8-r"> --><meta charset=euc-kr>'))).toBe('euc-kr');
    const late = `${' '.repeat(4096)}<meta charset="koi8-r">`;
    expect(sniffMarkupCharset(new TextEncoder().encode(late))).toBeUndefined();
  });
});

describe('no declaration at all', () => {
  test('valid UTF-8 is UTF-8', () => {
    expect(decodeText(new TextEncoder().encode('Ärger über Öl — 日本'))).toMatchObject({
      text: 'Ärger über Öl — 日本',
      charset: 'utf-8',
      source: 'default',
    });
  });

  test('bytes that are plainly not UTF-8 read as windows-1252', () => {
    const text = 'Déjà vu à la française, où ça coûte cher.';
    expect(decodeText(enc(text, 'windows-1252'))).toMatchObject({ text, charset: 'windows-1252', source: 'fallback' });
  });

  test('a single stray byte in a long UTF-8 page stays UTF-8', () => {
    const bytes = new Uint8Array([...new TextEncoder().encode(`${'日本語 '.repeat(500)}`), 0xff]);
    const decoded = decodeText(bytes);
    expect(decoded.charset).toBe('utf-8');
    expect(decoded.text.startsWith('日本語 日本語')).toBe(true);
  });
});

test('charsetFromContentType', () => {
  expect(charsetFromContentType('text/html; charset=UTF-8')).toBe('UTF-8');
  expect(charsetFromContentType('text/html;charset="koi8-r"; foo=bar')).toBe('koi8-r');
  expect(charsetFromContentType('text/html')).toBeUndefined();
  expect(charsetFromContentType(undefined)).toBeUndefined();
});

describe('settleCharset: UTF-8 is settled without building the text', () => {
  const utf8 = (text: string) => new TextEncoder().encode(text);

  test('a UTF-8 BOM, header, <meta> or valid bytes give a verdict and no text', () => {
    expect(settleCharset(new Uint8Array([0xef, 0xbb, 0xbf, ...utf8('naïve')]))).toEqual({ charset: 'utf-8', source: 'bom' });
    expect(settleCharset(utf8('naïve'), { contentType: 'text/html; charset=UTF8' })).toEqual({ charset: 'utf-8', source: 'header' });
    expect(settleCharset(utf8(page('<meta charset="utf-8">', 'naïve')))).toEqual({ charset: 'utf-8', source: 'meta' });
    expect(settleCharset(utf8(page('', 'naïve')))).toEqual({ charset: 'utf-8', source: 'default' });
  });

  test('any other charset, and bytes that are not valid UTF-8, are decoded as before', () => {
    const html = page('<meta charset="windows-1251">', 'Главная');
    expect(settleCharset(enc(html, 'windows-1251'))).toEqual({ text: html, charset: 'windows-1251', source: 'meta' });
    expect(settleCharset(enc('Café crème — déjà vu, à la carte', 'windows-1252'))).toMatchObject({
      charset: 'windows-1252',
      source: 'fallback',
    });
  });

  test('decodeText gives the same text either way (a UTF-8 BOM dropped)', () => {
    const html = page('<meta charset="windows-1251">', 'naïve');
    expect(decodeText(new Uint8Array([0xef, 0xbb, 0xbf, ...utf8(html)]))).toEqual({ text: html, charset: 'utf-8', source: 'bom' });
    expect(decodeText(utf8(html), { contentType: 'text/html; charset=utf-8' })).toEqual({ text: html, charset: 'utf-8', source: 'header' });
  });
});
