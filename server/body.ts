/**
 * Reads and validates a JSON request body by hand, after authentication has run, so a bad key is
 * answered 401 even when the body is also bad. Oversized bodies are refused with the JSON 413,
 * whatever their size and whether or not they declare it. Text holding U+0000, in any field at any
 * depth, is a 400 naming the field before the schema sees it (core/validation.ts `nulField`).
 */
import type { z } from 'zod';
import { badRequest, TrawlError } from '../core/errors.ts';
import { nulField, nulRefused, parseOrThrow } from '../core/validation.ts';

const tooLarge = (maxBytes: number) => new TrawlError('payload_too_large', `Request body exceeds ${maxBytes} bytes`);

/**
 * The body's bytes, read as a stream and given up as soon as they pass `maxBytes`: the server lets
 * any size through to here (so every oversized body gets the JSON 413), and this is the cap.
 */
async function readCapped(request: Request, maxBytes: number): Promise<Uint8Array> {
  const length = request.headers.get('content-length');
  if (length !== null && Number(length) > maxBytes) throw tooLarge(maxBytes);
  // A declared length is what HTTP framing delivers, no more: read at once (the common, fast case).
  if (length !== null) return new Uint8Array(await request.arrayBuffer());
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size);
}

/** `emptyAsObject`: no body at all reads as `{}` (for bodies whose every field is optional). */
export async function readJsonBody<S extends z.ZodType>(
  request: Request,
  schema: S,
  maxBytes: number,
  emptyAsObject = false,
): Promise<z.output<S>> {
  const bytes = await readCapped(request, maxBytes);
  const text = new TextDecoder().decode(bytes).trim();
  if (!text && emptyAsObject) return parseOrThrow(schema, {});
  if (!text) throw badRequest('Request body must be a JSON object');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw badRequest('Request body is not valid JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw badRequest('Request body must be a JSON object');
  const nul = nulField(value);
  if (nul) throw nulRefused(nul);
  return parseOrThrow(schema, value);
}
