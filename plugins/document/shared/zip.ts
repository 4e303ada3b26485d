/**
 * The zip guard for DOCX and XLSX: reads the central directory and checks entry count, total
 * uncompressed size and per-entry compression ratio before any zip library sees the file, then
 * proves the directory honest: every entry is inflated with its declared size as a hard cap (so a
 * size that lies is caught after at most that many bytes) and checked against its CRC, and the
 * local entries must tile the file up to the directory (so a streaming reader, which walks local
 * headers, sees only checked data).
 * Memory stays bounded by the largest allowed entry; a bomb is refused in milliseconds.
 */
import zlib from 'node:zlib';
import { DocumentRefusal } from './types.ts';
import { formatBytes } from './limits.ts';
import { encodeZip } from './zip-write.ts';

export interface ZipLimits {
  maxEntries: number;
  maxDecompressedBytes: number;
  maxCompressionRatio: number;
}

export interface ZipEntry {
  name: string;
  method: number;
  flags: number;
  compressedSize: number;
  size: number;
  crc: number;
  localOffset: number;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const DESCRIPTOR = 0x08074b50;
const CFB_SIGNATURE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
/** Ratios are only judged on entries big enough to matter: a tiny file of repeats is harmless. */
const RATIO_MIN_BYTES = 1024 * 1024;

const corrupt = (detail: string) => new DocumentRefusal(`the file is corrupt (${detail})`);

export class ZipArchive {
  private readonly view: DataView;

  private constructor(
    private readonly bytes: Uint8Array,
    readonly entries: readonly ZipEntry[],
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  /** Reads the directory and checks the limits; throws DocumentRefusal with the reason. */
  static open(bytes: Uint8Array, limits: ZipLimits): ZipArchive {
    if (CFB_SIGNATURE.every((b, i) => bytes[i] === b)) {
      // Office wraps password-protected files (and the old binary formats) in a compound file.
      throw new DocumentRefusal('it is a password-protected or legacy binary Office file, which cannot be read');
    }
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const end = findEndOfDirectory(view);
    const count = view.getUint16(end + 10, true);
    const directorySize = view.getUint32(end + 12, true);
    const directoryOffset = view.getUint32(end + 16, true);
    if (count === 0xffff || directoryOffset === 0xffffffff) throw new DocumentRefusal('ZIP64 archives are not supported');
    if (count > limits.maxEntries)
      throw new DocumentRefusal(`the archive has ${count} entries, over the limit of ${limits.maxEntries} (refused as a likely zip bomb)`);
    if (directoryOffset + directorySize > end) throw corrupt('the zip directory points past its end');
    const entries: ZipEntry[] = [];
    let total = 0;
    for (let at = directoryOffset, i = 0; i < count; i++) {
      if (at + 46 > end || view.getUint32(at, true) !== CENTRAL) throw corrupt('broken zip directory');
      const nameLength = view.getUint16(at + 28, true);
      const entry: ZipEntry = {
        flags: view.getUint16(at + 8, true),
        method: view.getUint16(at + 10, true),
        crc: view.getUint32(at + 16, true),
        compressedSize: view.getUint32(at + 20, true),
        size: view.getUint32(at + 24, true),
        name: new TextDecoder().decode(bytes.subarray(at + 46, at + 46 + nameLength)),
        localOffset: view.getUint32(at + 42, true),
      };
      at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
      if (entry.flags & 1) throw new DocumentRefusal('it is encrypted (password protected)');
      if (entry.method !== 0 && entry.method !== 8)
        throw new DocumentRefusal(`entry ${entry.name} uses unsupported compression method ${entry.method}`);
      total += entry.size;
      if (total > limits.maxDecompressedBytes) {
        throw new DocumentRefusal(
          `the archive expands to more than ${formatBytes(limits.maxDecompressedBytes)} (refused as a likely zip bomb)`,
        );
      }
      const ratio = entry.size / Math.max(1, entry.compressedSize);
      if (entry.size >= RATIO_MIN_BYTES && ratio > limits.maxCompressionRatio) {
        throw new DocumentRefusal(
          `entry ${entry.name} is compressed ${Math.round(ratio)}:1, over the ${limits.maxCompressionRatio}:1 limit (refused as a likely zip bomb)`,
        );
      }
      entries.push(entry);
    }
    const archive = new ZipArchive(bytes, entries);
    archive.verifyLayout(directoryOffset);
    return archive;
  }

  /** Local headers must match the directory and leave no unlisted bytes; every entry must inflate to its declared size. */
  private verifyLayout(directoryOffset: number): void {
    const view = this.view;
    let expected = 0;
    for (const entry of [...this.entries].sort((a, b) => a.localOffset - b.localOffset)) {
      if (entry.localOffset !== expected) throw corrupt(`unlisted data before entry ${entry.name}`);
      const data = this.dataOf(entry);
      inflateEntry(entry, data);
      expected = data.byteOffset - this.bytes.byteOffset + data.byteLength;
      if (entry.flags & 8) {
        // A data descriptor follows the data: CRC and sizes, with an optional signature.
        const signed = expected + 4 <= view.byteLength && view.getUint32(expected, true) === DESCRIPTOR;
        expected += signed ? 16 : 12;
      }
    }
    if (expected !== directoryOffset) throw corrupt('unlisted data before the zip directory');
  }

  private dataOf(entry: ZipEntry): Uint8Array {
    const view = this.view;
    const at = entry.localOffset;
    if (at + 30 > view.byteLength || view.getUint32(at, true) !== LOCAL) throw corrupt(`missing local header for ${entry.name}`);
    const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
    if (start + entry.compressedSize > view.byteLength) throw corrupt(`entry ${entry.name} is truncated`);
    return this.bytes.subarray(start, start + entry.compressedSize);
  }

  has(name: string): boolean {
    return this.entries.some((e) => e.name === name);
  }

  /** The bytes of one entry (already proven to inflate to its declared size), or null. */
  read(name: string): Uint8Array | null {
    const entry = this.entries.find((e) => e.name === name);
    if (!entry) return null;
    return inflateEntry(entry, this.dataOf(entry));
  }

  /**
   * The same (checked) entries as a new archive in the order `rank` gives (lowest first), their
   * compressed data copied as is. Streaming readers meet entries in file order and some need the
   * parts a document's other parts refer to first.
   */
  reordered(rank: (name: string) => number): Uint8Array {
    const sorted = [...this.entries].sort((a, b) => rank(a.name) - rank(b.name));
    return encodeZip(sorted.map((e) => ({ name: e.name, method: e.method, crc: e.crc, size: e.size, data: this.dataOf(e) })));
  }

  readText(name: string): string | null {
    const data = this.read(name);
    return data ? new TextDecoder().decode(data) : null;
  }
}

function findEndOfDirectory(view: DataView): number {
  // The end record is 22 bytes plus a comment of at most 65535 bytes, at the very end.
  const stop = Math.max(0, view.byteLength - 22 - 0xffff);
  for (let at = view.byteLength - 22; at >= stop; at--) {
    if (view.getUint32(at, true) === EOCD) return at;
  }
  throw corrupt('no zip directory found; the file may be truncated');
}

function inflateEntry(entry: ZipEntry, data: Uint8Array): Uint8Array {
  const out = entry.method === 0 ? data : inflate(entry, data);
  if (out.byteLength !== entry.size) throw corrupt(`entry ${entry.name} has the wrong size`);
  if (zlib.crc32(out) !== entry.crc) throw corrupt(`entry ${entry.name} fails its checksum`);
  return out;
}

function inflate(entry: ZipEntry, data: Uint8Array): Uint8Array {
  try {
    return zlib.inflateRawSync(data, { maxOutputLength: Math.max(1, entry.size) });
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
      throw new DocumentRefusal(`entry ${entry.name} expands past its declared size (refused as a likely zip bomb)`);
    }
    throw corrupt(`entry ${entry.name} cannot be decompressed`);
  }
}
