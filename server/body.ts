/**
 * Reads and validates a JSON request body by hand, after authentication has run, so a bad key is
 * answered 401 even when the body is also bad. Oversized bodies are refused with 413.
 */
import type { z } from 'zod';
import { badRequest, TrawlError } from '../core/errors.ts';
import { parseOrThrow } from '../core/validation.ts';

export async function readJsonBody<S extends z.ZodType>(request: Request, schema: S, maxBytes: number): Promise<z.output<S>> {
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > maxBytes) throw new TrawlError('payload_too_large', `Request body exceeds ${maxBytes} bytes`);
  const bytes = new Uint8Array(await request.arrayBuffer());
  if (bytes.byteLength > maxBytes) throw new TrawlError('payload_too_large', `Request body exceeds ${maxBytes} bytes`);
  const text = new TextDecoder().decode(bytes).trim();
  if (!text) throw badRequest('Request body must be a JSON object');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw badRequest('Request body is not valid JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw badRequest('Request body must be a JSON object');
  return parseOrThrow(schema, value);
}
