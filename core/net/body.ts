/**
 * Reads an HTTP response body as a stream, undoing gzip/deflate/brotli content encoding ourselves
 * so the size cap applies to the bytes we would actually hold: a small compressed "bomb" that
 * inflates to gigabytes is stopped as soon as the decompressed output passes the cap, with at most
 * one extra decompressor chunk in memory.
 */
import type { Readable, Transform } from 'node:stream';
import zlib from 'node:zlib';
import { fetchFailed } from '../errors.ts';

export interface ReadBodyOptions {
  /** Cap on the decoded (decompressed) body, and on the raw bytes received. */
  maxBytes: number;
  /** The Content-Encoding header, e.g. `gzip` or `gzip, br`; empty for none. */
  contentEncoding?: string;
  /** Aborting destroys the streams and rejects with the signal's reason. */
  signal: AbortSignal;
  /** Past the cap, keep the first `maxBytes` and stop reading instead of failing (robots.txt: RFC 9309 reads at least 500 KiB). */
  truncate?: boolean;
}

export interface ReadBodyResult {
  body: Uint8Array;
  /** True when the body went on past `maxBytes` and only its start was kept. */
  truncated: boolean;
}

const tooLarge = (max: number) => fetchFailed(`response body exceeds ${max} bytes`);

/**
 * The first chunk, put back on the stream: the choice between zlib-wrapped and raw deflate (some
 * old servers send raw deflate under `deflate`) depends on its first two bytes.
 */
function peekFirstChunk(stream: Readable): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const done = () => {
      stream.off('readable', onReadable);
      stream.off('end', onEnd);
      stream.off('error', onError);
    };
    const onReadable = () => {
      const chunk = stream.read() as Buffer | null;
      if (chunk === null) return;
      done();
      stream.unshift(chunk);
      resolve(chunk);
    };
    const onEnd = () => {
      done();
      resolve(null);
    };
    const onError = (err: Error) => {
      done();
      reject(err);
    };
    stream.on('readable', onReadable);
    stream.once('end', onEnd);
    stream.once('error', onError);
  });
}

function isZlibHeader(chunk: Buffer | null): boolean {
  if (!chunk || chunk.length < 2) return true;
  const [cmf = 0, flg = 0] = chunk;
  return (cmf & 0x0f) === 8 && ((cmf << 8) | flg) % 31 === 0;
}

async function decoderFor(encoding: string, source: Readable): Promise<Transform | null> {
  switch (encoding) {
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip();
    case 'deflate':
      return isZlibHeader(await peekFirstChunk(source)) ? zlib.createInflate() : zlib.createInflateRaw();
    case 'br':
      return zlib.createBrotliDecompress();
    case '':
    case 'identity':
      return null;
    default:
      throw fetchFailed(`unsupported content-encoding "${encoding}"`);
  }
}

/**
 * The chunks in one new buffer of exactly `length` bytes, copied once. A buffer of its own, not
 * a slice of a shared pool, can be moved to a content worker whole instead of copied again.
 */
function joined(chunks: Uint8Array[], length: number): Uint8Array {
  const out = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    if (at >= length) break;
    const part = chunk.length <= length - at ? chunk : chunk.subarray(0, length - at);
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** Collects the decoded body. Rejects with TrawlError for cap and decoding failures, with the raw
 * stream error for network failures, and with `signal.reason` when aborted. */
export async function readBody(res: Readable, options: ReadBodyOptions): Promise<ReadBodyResult> {
  const { maxBytes, signal } = options;
  const encodings = (options.contentEncoding ?? '')
    .split(',')
    .map((e) => e.trim().toLowerCase())
    .filter((e) => e !== '' && e !== 'identity')
    .reverse(); // listed in the order they were applied

  const streams: Readable[] = [res];
  let raw = 0;
  return new Promise<ReadBodyResult>((resolve, reject) => {
    let settled = false;
    const finish = (err: unknown, body?: Uint8Array, truncated = false) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      if (err !== undefined || truncated) for (const s of streams) s.destroy();
      if (err !== undefined) reject(err);
      else resolve({ body: body!, truncated });
    };
    const onAbort = () => finish(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });

    res.once('aborted', () =>
      finish(Object.assign(new Error('connection closed before the response body was complete'), { code: 'ERR_TRAWL_TRUNCATED' })),
    );
    res.once('error', (err) => finish(err));

    const build = async (): Promise<Readable> => {
      let tail: Readable = res;
      for (const encoding of encodings) {
        const decoder = await decoderFor(encoding, tail);
        if (!decoder) continue;
        decoder.once('error', (err) => finish(fetchFailed(`could not decode ${encoding} response body: ${err.message}`, err)));
        tail.pipe(decoder);
        streams.push(decoder);
        tail = decoder;
      }
      return tail;
    };

    build().then(
      (tail) => {
        if (settled) return;
        const chunks: Buffer[] = [];
        let size = 0;
        const kept = () => joined(chunks, Math.min(size, maxBytes));
        const overCap = () => (options.truncate ? finish(undefined, kept(), true) : finish(tooLarge(maxBytes)));
        const onData = (chunk: Buffer) => {
          const room = maxBytes - size;
          size += chunk.length;
          if (size <= maxBytes) return void chunks.push(chunk);
          if (options.truncate && room > 0) chunks.push(chunk.subarray(0, room));
          overCap();
        };
        if (tail !== res) {
          // Raw bytes count too: some inputs (a gzip header with an endless name field) never inflate.
          res.on('data', (chunk: Buffer) => {
            raw += chunk.length;
            if (raw > maxBytes) overCap();
          });
        }
        tail.on('data', onData);
        tail.once('end', () => finish(undefined, kept()));
      },
      (err) => finish(err),
    );
  });
}
