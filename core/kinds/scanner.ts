/**
 * The `scanner` plugin kind's handler shape: one script or source map in, the request targets it
 * names out, with how sure the scanner is. Scanners live in plugins/scanner/; endpoint discovery
 * runs them in a content worker.
 */
/** What a `scanner` reads: one script (inline or a bundle) or the source map a bundle names. */
export interface ScanSource {
  type: 'javascript' | 'source-map';
  text: string;
  /** The bundle's file name, or `inline` for a script in the page. */
  name: string;
  /** Where the text was fetched from; absent for inline scripts. */
  url?: string;
  /** The analysed page's final URL. */
  pageUrl: string;
}

/** How sure a scanner is that a value is a request target. */
export type ScanPosition =
  /**
   * The argument of a request call (`fetch`, XHR `open`, axios/ky/`$.ajax`, `new WebSocket` …) or
   * its options' `url`, or a name that says API (`baseURL:`, `apiEndpoint =`).
   */
  | 'request'
  /** A plain `url:`/`uri:` option or variable outside a request call (menus and routers use them too): kept when it looks like an API. */
  | 'option'
  /** A URL-like string or template literal anywhere else: kept only when it looks like an API. */
  | 'literal';

export interface ScanHit {
  /** As written; expressions of template literals and concatenations become `{name}`. */
  value: string;
  position: ScanPosition;
  /** What makes the request when known: `websocket` and `eventsource` make a value a `web_socket`, `graphql` a `graph_ql`. */
  api?: 'fetch' | 'xhr' | 'client' | 'websocket' | 'eventsource' | 'graphql' | 'beacon';
  /** 1-based line of the value in the text, when known. */
  line?: number;
}

export interface ScanResult {
  hits: ScanHit[];
  /** Further sources unpacked from this one (a source map's original files), scanned in turn. */
  sources?: ScanSource[];
  /** What the scanner could not read completely. */
  warnings?: string[];
}

/**
 * Endpoint discovery. Run mode (core/features/endpoints): for each source, the enabled scanners
 * that read its `type` are asked in list order; the first that answers (not null) wins, so a
 * parser scanner comes first and a tolerant one after it as the fallback. Runs in a content worker
 * (no services), under a time limit per source.
 */
export interface ScannerHandler {
  reads: ReadonlyArray<ScanSource['type']>;
  /** null: cannot read this source (it does not parse, it is too large): the next scanner tries. */
  scan(source: ScanSource): ScanResult | null;
}
