/**
 * The worker thread document parsers run in. It loads the parser module it is asked for (each
 * type's `parse.ts`), runs it on the bytes and posts back the result or the reason it failed. A
 * parser that throws answers with an error; one that crashes the thread or hangs is handled by
 * the pool on the main thread, which never shares fate with it.
 */
import type { DocumentParser } from './types.ts';

export interface ParseRequest {
  id: number;
  parserUrl: string;
  bytes: Uint8Array;
  options: unknown;
}

export type ParseReply =
  | { id: number; ok: true; result: Awaited<ReturnType<DocumentParser<unknown>>> }
  | { id: number; ok: false; refused: boolean; message: string };

declare const self: Worker;

self.onmessage = async (event: MessageEvent<ParseRequest>) => {
  const { id, parserUrl, bytes, options } = event.data;
  try {
    const parser = (await import(parserUrl)) as { parse: DocumentParser<unknown> };
    const result = await parser.parse(bytes, options);
    self.postMessage({ id, ok: true, result } satisfies ParseReply);
  } catch (err) {
    const refused = err instanceof Error && err.name === 'DocumentRefusal';
    const message = err instanceof Error ? err.message : String(err);
    self.postMessage({ id, ok: false, refused, message } satisfies ParseReply);
  }
};
