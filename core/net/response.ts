/**
 * A response as Trawl fetched it: what the HTTP client answers, what fetchers and sources hand to
 * a page document, and what document plugins parse. A type of its own, below both the client and
 * the document, so either can use it without importing the other.
 */
export interface FetchedResponse {
  status: number;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  /** Body bytes after transfer decoding (gzip/brotli), before charset decoding. */
  body: Uint8Array;
  /** The URL after all redirects. */
  finalUrl: string;
  /** The media type without parameters, lower-cased (e.g. `text/html`). */
  mediaType: string;
  /** Decoded text when the response is textual, using the detected charset. */
  text?: string;
  charset?: string;
  /** Only the start of a longer body was kept (requests made with `truncateBody`). */
  truncated?: boolean;
  /**
   * Markup a source built to stand for this response (the video page): the HTML document plugin
   * parses it instead of the body, which stays the page as received.
   */
  builtHtml?: string;
}
