// The zip guard against real archives: honest ones open; each way a zip bomb or a doctored
// archive lies is refused with the reason, before any zip library sees the bytes.
import { expect, test } from 'bun:test';
import { ZipArchive, type ZipLimits } from './zip.ts';
import { writeZip } from './fixtures/zip-writer.ts';
import { DocumentRefusal } from './types.ts';

const limits: ZipLimits = { maxEntries: 100, maxDecompressedBytes: 10 * 1024 * 1024, maxCompressionRatio: 200 };
const refusal = (bytes: Uint8Array, l: ZipLimits = limits) => {
  try {
    ZipArchive.open(bytes, l);
  } catch (err) {
    expect(err).toBeInstanceOf(DocumentRefusal);
    return (err as Error).message;
  }
  throw new Error('expected a refusal');
};

test('an honest archive opens and its entries read back', () => {
  const archive = ZipArchive.open(
    writeZip([
      { name: 'word/document.xml', data: '<w:document>hello</w:document>' },
      { name: 'docProps/core.xml', data: '<core/>', method: 0 },
    ]),
    limits,
  );
  expect(archive.entries.map((e) => e.name)).toEqual(['word/document.xml', 'docProps/core.xml']);
  expect(archive.readText('word/document.xml')).toBe('<w:document>hello</w:document>');
  expect(archive.readText('docProps/core.xml')).toBe('<core/>');
  expect(archive.has('xl/workbook.xml')).toBe(false);
  expect(archive.read('missing')).toBeNull();
});

test('too many entries', () => {
  const many = Array.from({ length: 101 }, (_, i) => ({ name: `f${i}.xml`, data: 'x' }));
  expect(refusal(writeZip(many))).toBe('the archive has 101 entries, over the limit of 100 (refused as a likely zip bomb)');
});

test('an archive that says it expands past the limit', () => {
  const big = new Uint8Array(6 * 1024 * 1024);
  expect(
    refusal(
      writeZip([
        { name: 'a.xml', data: big },
        { name: 'b.xml', data: big },
      ]),
      { ...limits, maxCompressionRatio: 100_000 },
    ),
  ).toBe('the archive expands to more than 10 MB (refused as a likely zip bomb)');
});

test('an entry compressed beyond the ratio limit', () => {
  expect(refusal(writeZip([{ name: 'sheet.xml', data: new Uint8Array(4 * 1024 * 1024) }]))).toMatch(
    /^entry sheet\.xml is compressed \d+:1, over the 200:1 limit \(refused as a likely zip bomb\)$/,
  );
});

test('an entry whose declared size lies is stopped at the declared size', () => {
  const bomb = writeZip([{ name: 'word/document.xml', data: new Uint8Array(64 * 1024 * 1024), declaredSize: 1000 }]);
  expect(refusal(bomb, { ...limits, maxCompressionRatio: 100_000 })).toBe(
    'entry word/document.xml expands past its declared size (refused as a likely zip bomb)',
  );
});

test('an entry the directory does not list (seen only by streaming readers) is refused', () => {
  const smuggled = writeZip(
    [
      { name: 'a.xml', data: 'a' },
      { name: 'bomb.xml', data: new Uint8Array(1024) },
      { name: 'b.xml', data: 'b' },
    ],
    { unlisted: new Set(['bomb.xml']) },
  );
  expect(refusal(smuggled)).toBe('the file is corrupt (unlisted data before entry b.xml)');
  const trailing = writeZip(
    [
      { name: 'a.xml', data: 'a' },
      { name: 'bomb.xml', data: 'x' },
    ],
    { unlisted: new Set(['bomb.xml']) },
  );
  expect(refusal(trailing)).toBe('the file is corrupt (unlisted data before the zip directory)');
});

test('an archive rewritten in another order keeps its checked entries', () => {
  const archive = ZipArchive.open(
    writeZip([
      { name: 'z.xml', data: 'last' },
      { name: 'a.xml', data: 'first', method: 0 },
    ]),
    limits,
  );
  const reordered = ZipArchive.open(
    archive.reordered((name) => (name === 'a.xml' ? 0 : 1)),
    limits,
  );
  expect(reordered.entries.map((e) => e.name)).toEqual(['a.xml', 'z.xml']);
  expect(reordered.readText('z.xml')).toBe('last');
  expect(reordered.readText('a.xml')).toBe('first');
});

test('encrypted entries, unknown compression, truncation and non-zips', () => {
  const zip = writeZip([{ name: 'a.xml', data: 'hello' }]);
  const encrypted = zip.slice();
  const central = Buffer.from(encrypted).indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
  encrypted[central + 8] = 1;
  expect(refusal(encrypted)).toBe('it is encrypted (password protected)');
  const bzip = zip.slice();
  bzip[central + 10] = 12;
  expect(refusal(bzip)).toBe('entry a.xml uses unsupported compression method 12');
  expect(refusal(zip.slice(0, zip.byteLength - 10))).toBe('the file is corrupt (no zip directory found; the file may be truncated)');
  expect(refusal(new TextEncoder().encode('plain text, not a zip'))).toBe(
    'the file is corrupt (no zip directory found; the file may be truncated)',
  );
  const cfb = new Uint8Array(512);
  cfb.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
  expect(refusal(cfb)).toBe('it is a password-protected or legacy binary Office file, which cannot be read');
});

test('a corrupt deflate stream is refused, not passed on', () => {
  const zip = writeZip([{ name: 'a.xml', data: 'some text that deflates into a few bytes '.repeat(10) }]);
  zip.set([zip[40]! ^ 0xff, zip[41]! ^ 0xff], 40);
  expect(refusal(zip)).toMatch(/^the file is corrupt \(entry a\.xml (cannot be decompressed|has the wrong size|fails its checksum)\)$/);
});
