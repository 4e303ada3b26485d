/**
 * The internal scrape result and its typed metadata, camelCase and in no wire format's shape:
 * the pipeline produces it, the results cache and crawl pages store it, and each wire format
 * presents it in its own shape (server/wire/*). Format outputs stay under their format's name
 * (`json`, `query`); which field a wire format shows them in is the wire format's business.
 */

/** What kind of page the main-content transform took the page for. */
export const PAGE_TYPES = ['article', 'forum', 'product', 'listing', 'collection', 'documentation', 'service', 'other'] as const;
export type PageType = (typeof PAGE_TYPES)[number];

export interface Metadata {
  title: string;
  description: string;
  author: string | null;
  publishedDate: string | null;
  language: string | null;
  siteName: string | null;
  image: string | null;
  favicon: string | null;
  wordCount: number;
  /** HTTP status of the final response, when there was one. */
  statusCode?: number;
  /** The URL after redirects. */
  finalUrl?: string;
  contentType?: string;
  /** Set (true) when the page was rendered in the browser. */
  rendered?: boolean;
  /** How long the server asked to be left alone (the Retry-After of a 429 or 503), in seconds. */
  retryAfterSeconds?: number;
  /** What kind of page it is; set on web pages by the main-content transform. */
  pageType?: PageType;
  /** The chance (0–1) that the returned content is the page's main content, no more and no less; set with pageType. */
  contentConfidence?: number;
  // Set by document types and sources that know them (a plugin adding one adds it here).
  /** PDF */
  pageCount?: number;
  /** XLSX */
  sheetCount?: number;
  /** CSV */
  rowCount?: number;
  columnCount?: number;
  delimiter?: string;
  charset?: string;
  /** PDF, DOCX, XLSX document properties */
  keywords?: string;
  /** Video pages */
  videoId?: string;
  channel?: string;
  viewCount?: number;
  durationSeconds?: number;
  transcriptLanguage?: string | null;
}

export function emptyMetadata(): Metadata {
  return {
    title: '',
    description: '',
    author: null,
    publishedDate: null,
    language: null,
    siteName: null,
    image: null,
    favicon: null,
    wordCount: 0,
  };
}

/** The `json` format's output: the whole extraction result. */
export interface Extraction {
  /** The URL as requested (normalised); `metadata.finalUrl` is where it led. */
  url: string;
  metadata: Metadata;
  content: { markdown: string; text: string };
  /** Words of `content.text`; the same count as `metadata.wordCount`. */
  wordCount: number;
  /** Links inside the extracted content. */
  links: Array<{ text: string; href: string }>;
  /** Images, video and audio of the extracted content, in document order. */
  assets: Array<{ type: string; url: string; alt?: string }>;
}

export interface ActionError {
  /** Position of the action in the request's `actions`. */
  index: number;
  type: string;
  error: string;
}

/** What the browser actions handed back; each list is present only when an action produced it. */
export interface ActionResults {
  /** One entry per script action, in order; null for one that failed. */
  jsResults?: unknown[];
  /** One entry per successful screenshot action (base64 PNG). */
  screenshots?: Array<{ index: number; data: string }>;
  /** With `ignoreActionErrors`: the actions that failed and were skipped. */
  errors?: ActionError[];
}

export interface PipelineMessage {
  level: 'warning' | 'info';
  stage: string;
  plugin: string;
  message: string;
}

export interface ScrapeResult {
  /** The URL as requested (normalised). */
  url: string;
  metadata: Metadata;
  /** Outputs of the requested formats that rendered, keyed by format name, in request order. */
  formats: Record<string, unknown>;
  actions?: ActionResults;
  /** The page screenshot taken because the request set `screenshot` (base64 PNG). */
  screenshot?: string;
  /** Problems plugins reported; the result is still usable. */
  warnings: PipelineMessage[];
}
