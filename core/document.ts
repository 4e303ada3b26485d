/**
 * PageDocument: the one mutable object that travels through the pipeline stages and collects the
 * response, the detected type, the DOM, the intermediate content, metadata, outputs, messages
 * and timings. Formats read `content`; document plugins fill it.
 */
import { parseHtmlDocument, type DomDocument, type DomElement } from './dom.ts';
import type { Job } from './job.ts';
import { emptyMetadata, type ActionResults, type Metadata, type PipelineMessage } from './model/result.ts';
import type { FetchedResponse } from './net/response.ts';
import { DataBag } from './data-bag.ts';
import { waitAskedFor } from './net/provider-http.ts';

export { emptyMetadata, type Metadata } from './model/result.ts';

export class PageDocument {
  readonly job: Job;
  response: FetchedResponse | null = null;
  /** Id of the document plugin that recognised the response (e.g. `document.html`). */
  type: string | null = null;
  /** The full parsed page (HTML pages) or the document built from a non-HTML file. */
  dom: DomDocument | null = null;
  /**
   * Root of the content that formats render; each transform works on what the previous ones left
   * here. Usually `dom.body`; a detached container after include_selectors.
   */
  root: DomElement | null = null;
  metadata: Metadata = emptyMetadata();
  /** Format outputs keyed by format name (`markdown`, `json`, `links`, …). */
  readonly outputs: Record<string, unknown> = {};
  /** What the browser actions handed back (fetchers that run actions fill it). */
  actions: ActionResults | null = null;
  /** The page screenshot a request's `screenshot` field asked for (base64 PNG). */
  screenshot: string | null = null;
  /** Values plugins pass to each other, by typed key (data-bag.ts). */
  readonly data = new DataBag();
  readonly messages: PipelineMessage[] = [];
  readonly timings: Record<string, number> = {};

  constructor(job: Job) {
    this.job = job;
  }

  /** The URL relative links resolve against: the final URL after redirects, else the requested one. */
  get baseUrl(): string {
    return this.response?.finalUrl ?? this.job.url;
  }

  /** The intermediate form: the content as HTML. */
  get contentHtml(): string {
    return this.root?.innerHTML ?? '';
  }

  /** Document plugins that produce HTML (PDF, DOCX, sheets …) hand it over here. */
  setContentHtml(html: string): void {
    this.dom = parseHtmlDocument(html);
    this.root = this.dom.body;
  }

  /**
   * A fetcher's response and what metadata says of it. HTTP error statuses are not fetch failures: a
   * 404 or 503 page is what the site serves at that URL, and users scraping or watching it want to
   * see it (a watch should notice a page turning into an error page), so it goes through the
   * pipeline like any other, its status in metadata and a warning saying so.
   */
  recordResponse(response: FetchedResponse, plugin: string): void {
    this.response = response;
    this.metadata.statusCode = response.status;
    this.metadata.finalUrl = response.finalUrl;
    this.metadata.contentType = response.headers['content-type'] ?? response.mediaType;
    const wait = waitAskedFor(response);
    if (wait !== undefined) this.metadata.retryAfterSeconds = wait;
    if (response.status >= 400) this.warn('fetch', plugin, `The server answered HTTP ${response.status}`);
  }

  warn(stage: string, plugin: string, message: string): void {
    this.messages.push({ level: 'warning', stage, plugin, message });
  }
}
