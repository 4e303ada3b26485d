/**
 * PageDocument: the one mutable object that travels through the pipeline stages and collects the
 * response, the detected type, the DOM, the intermediate content, metadata, outputs, messages
 * and timings. Formats read `content`; document plugins fill it.
 */
import { parseHtmlDocument, type DomDocument, type DomElement } from './dom.ts';
import type { Job } from './job.ts';
import { DataBag } from './data-bag.ts';

export interface Metadata {
  title: string;
  description: string;
  author: string | null;
  published_date: string | null;
  language: string | null;
  site_name: string | null;
  image: string | null;
  favicon: string | null;
  word_count: number;
  /** HTTP status of the final response, when there was one. */
  status_code?: number;
  /** The URL after redirects. */
  final_url?: string;
  content_type?: string;
  [extra: string]: unknown;
}

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
}

export interface PipelineMessage {
  level: 'warning' | 'info';
  stage: string;
  plugin: string;
  message: string;
}

export function emptyMetadata(): Metadata {
  return { title: '', description: '', author: null, published_date: null, language: null, site_name: null, image: null, favicon: null, word_count: 0 };
}

export class PageDocument {
  readonly job: Job;
  response: FetchedResponse | null = null;
  /** Id of the document plugin that recognised the response (e.g. `document.html`). */
  type: string | null = null;
  /** The full parsed page (HTML pages) or the document built from a non-HTML file. */
  dom: DomDocument | null = null;
  /**
   * Root of the content that formats render; each transform works on what the previous ones left
   * here. Usually `dom.body`; a detached container after include_selectors; the body of a second
   * parse when the HTML document plugin had to mend linkedom's tree (then not inside `dom`).
   */
  root: DomElement | null = null;
  metadata: Metadata = emptyMetadata();
  /** Format outputs keyed by response field (`markdown`, `text`, `links`, …). */
  readonly outputs: Record<string, unknown> = {};
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

  warn(stage: string, plugin: string, message: string): void {
    this.messages.push({ level: 'warning', stage, plugin, message });
  }
}
