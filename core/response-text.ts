/**
 * The response body as text, for every plugin that reads a page as text (the HTML document, the
 * rawHtml and attributes formats, the video source). Fetchers decode textual responses already
 * (UTF-8 ones on first read, see `textOnFirstRead`); a response without a declared type may
 * arrive as bytes only, so this decodes with the declared charset, else UTF-8.
 */
import type { FetchedResponse } from './net/response.ts';

export function responseText(response: FetchedResponse): string {
  if (response.text !== undefined) return response.text;
  try {
    return new TextDecoder(response.charset ?? 'utf-8').decode(response.body);
  } catch {
    // An unknown charset label: UTF-8 with replacement characters beats no text at all.
    return new TextDecoder().decode(response.body);
  }
}

/**
 * Makes `response.text` a property that decodes on its first read and then holds the text like
 * any other. A fetcher whose page is read only in a content worker (which decodes the body there)
 * then never builds the text on the server thread. Assigning or deleting it works as usual.
 */
export function textOnFirstRead(response: FetchedResponse, decode: () => string): void {
  const settle = (value: string | undefined) =>
    Object.defineProperty(response, 'text', { value, writable: true, enumerable: true, configurable: true });
  Object.defineProperty(response, 'text', {
    enumerable: true,
    configurable: true,
    get: () => {
      // Silently empty text would be wrong: say where the bytes went.
      if ((response.body.buffer as { detached?: boolean }).detached)
        throw new Error('the response body was moved to a content worker before its text was read here');
      const text = decode();
      settle(text);
      return text;
    },
    set: settle,
  });
}
