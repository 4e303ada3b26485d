/**
 * The response body as text, for every plugin that reads a page as text (the HTML document, the
 * rawHtml and attributes formats, the video source). Fetchers decode textual responses already; a
 * response without a declared type may arrive as bytes only, so this decodes with the declared
 * charset, else UTF-8.
 */
import type { FetchedResponse } from './document.ts';

export function responseText(response: FetchedResponse): string {
  if (response.text !== undefined) return response.text;
  try {
    return new TextDecoder(response.charset ?? 'utf-8').decode(response.body);
  } catch {
    // An unknown charset label: UTF-8 with replacement characters beats no text at all.
    return new TextDecoder().decode(response.body);
  }
}
