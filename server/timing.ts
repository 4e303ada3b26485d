/** The headers every endpoint that runs a scrape answers with: cache use and where the time went. */

/** `Server-Timing` from named durations in ms (names made token-safe: `transform.clean` → `transform_clean`); empty when there are none. */
export function serverTiming(timings: Record<string, number>): string {
  return Object.entries(timings)
    .map(([part, ms]) => `${part.replace(/[^a-zA-Z0-9_-]/g, '_')};dur=${ms}`)
    .join(', ');
}

/** `X-Trawl-Cache: hit|miss` and, when there are timings, `Server-Timing`. */
export function scrapeHeaders(cached: boolean, timings: Record<string, number>): Record<string, string> {
  const timing = serverTiming(timings);
  return { 'x-trawl-cache': cached ? 'hit' : 'miss', ...(timing ? { 'server-timing': timing } : {}) };
}
