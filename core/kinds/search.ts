/**
 * The `search` plugin kind's handler shape: one web search in, ranked hits out, and what /health may
 * show of a provider. Providers live in plugins/search/; the search feature runs them in order.
 */
/** One web search as a `search` provider receives it. */
export interface SearchQuery {
  query: string;
  /** Results wanted (1–50); a provider may return fewer, never needs to return more. */
  limit: number;
  /** ISO 3166-1 alpha-2, lower case (`us`); each provider spells it its own way. */
  country?: string;
  /** ISO 639-1, lower case (`en`). */
  language?: string;
  /** Ends the provider's requests: the caller went away or its time is up. */
  signal: AbortSignal;
}

/** One ranked result: `position` is 1-based, in the provider's order. */
export interface SearchHit {
  url: string;
  title: string;
  description: string;
  position: number;
}

export interface SearchAnswer {
  /** Best first; an empty list means the provider answered and found nothing. */
  hits: SearchHit[];
  /** What the provider could not honour (an ignored `language`, a later page that failed). */
  warnings?: string[];
}

/** What `/health` shows of a provider: never its key. */
export interface SearchStatus {
  /** `unused` until the first search; `rate_limited` while the provider's Retry-After runs. */
  state: 'unused' | 'ok' | 'failing' | 'rate_limited';
  /** Where queries go (origin and path; credentials left out). */
  endpoint: string;
  lastError?: { message: string; at: string };
  lastSuccessAt?: string;
  /** While rate limited: when the provider is asked again. */
  retryAt?: string;
}

/**
 * A web search provider. Run mode (core/features/search): the enabled providers are asked in
 * config order; the first that answers wins; a provider that throws (its message says why: key
 * rejected, rate limited, CAPTCHA page, JSON output disabled …) or finds nothing hands over to the
 * next, and every such outcome is reported in the response's `warnings`. When all fail, the call
 * fails with every reason. A failure a provider must not be asked again for a while carries
 * `TrawlError.retryAfterSeconds`. A provider never answers an error page as zero hits.
 */
export interface SearchHandler {
  search(query: SearchQuery): Promise<SearchAnswer>;
  status(): SearchStatus;
}
