/**
 * Checks a PDF must pass before pdf.js sees it: a header (else it is not a PDF), an end-of-file
 * marker near the end (else it is truncated: cut off in transfer or storage), and a budget on how
 * far its compressed streams expand. pdf.js inflates content streams without any limit, so a
 * small file whose streams expand to gigabytes would exhaust memory; here every Flate stream is
 * inflated once, streaming, counting the bytes and discarding them, so a bomb is stopped after at
 * most the budget and the check itself holds one chunk at a time. Image streams are skipped: text
 * extraction never decodes them.
 */
import zlib from 'node:zlib';
import { DocumentRefusal } from '../shared/types.ts';
import { formatBytes } from '../shared/limits.ts';

/** PDF readers look for the header in the first 1024 bytes and for %%EOF near the end. */
const HEADER_WINDOW = 1024;
const EOF_WINDOW = 2048;
/** How far back from `stream` the stream's dictionary is looked for. */
const DICTIONARY_WINDOW = 2048;

const latin1 = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');

export function checkPdfStructure(bytes: Uint8Array): void {
  if (!latin1(bytes.subarray(0, HEADER_WINDOW)).includes('%PDF-')) {
    throw new DocumentRefusal('the file is corrupt (it does not start with a PDF header)');
  }
  if (!latin1(bytes.subarray(Math.max(0, bytes.byteLength - EOF_WINDOW))).includes('%%EOF')) {
    throw new DocumentRefusal('the file is truncated (its end-of-file marker is missing)');
  }
}

/** Throws when the non-image Flate streams together expand past `maxBytes`; returns the total otherwise. */
export async function checkStreamBudget(bytes: Uint8Array, maxBytes: number): Promise<number> {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let total = 0;
  let at = 0;
  while ((at = buf.indexOf('stream', at, 'latin1')) !== -1) {
    const isEnd = at >= 3 && buf.toString('latin1', at - 3, at) === 'end';
    // The keyword is followed by CRLF or LF; anything else is the word inside some other token.
    const eol = buf[at + 6] === 0x0d && buf[at + 7] === 0x0a ? 2 : buf[at + 6] === 0x0a ? 1 : 0;
    if (isEnd || eol === 0) {
      at += 6;
      continue;
    }
    const start = at + 6 + eol;
    const end = buf.indexOf('endstream', start, 'latin1');
    if (end < 0) break;
    const dictionary = buf.toString('latin1', Math.max(0, at - DICTIONARY_WINDOW), at);
    const own = dictionary.slice(dictionary.lastIndexOf(' obj') + 1);
    if (/\/FlateDecode\b|\/Fl\b/.test(own) && !/\/Subtype\s*\/Image\b/.test(own)) {
      total += await inflatedSize(buf.subarray(start, end), maxBytes - total, maxBytes);
    }
    at = end + 9;
  }
  return total;
}

/** Deflate expands at most 1032:1, so a stream this small inflates to a few MB at worst: done in one call. */
const SMALL_STREAM = 4096;

function inflatedSize(data: Uint8Array, remaining: number, maxBytes: number): Promise<number> {
  const refusal = () =>
    new DocumentRefusal(`its compressed content expands to more than ${formatBytes(maxBytes)} (refused as a likely decompression bomb)`);
  if (data.byteLength <= SMALL_STREAM) {
    try {
      return Promise.resolve(
        zlib.inflateSync(data, { maxOutputLength: Math.max(1, remaining), finishFlush: zlib.constants.Z_SYNC_FLUSH }).byteLength,
      );
    } catch (err) {
      return (err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' ? Promise.reject(refusal()) : Promise.resolve(0);
    }
  }
  return new Promise((resolve, reject) => {
    // Sync flush: a stream cut short still counts what it produced; pdf.js reads that too.
    const inflater = zlib.createInflate({ finishFlush: zlib.constants.Z_SYNC_FLUSH });
    let size = 0;
    inflater.on('data', (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size <= remaining) return;
      inflater.destroy();
      reject(refusal());
    });
    inflater.on('end', () => resolve(size));
    // An undecodable (or encrypted) stream: pdf.js decides what to make of it.
    inflater.on('error', () => resolve(size));
    inflater.end(data);
  });
}
