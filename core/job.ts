/**
 * The immutable Job that carries one internal scrape request (core/model/request.ts) through the
 * pipeline, with the workspace it runs for and the signal that ends it. Built by the scrape
 * service from whatever wire format the request came in.
 */
import type { ScrapeRequest } from './model/request.ts';

export type { ScrapeRequest } from './model/request.ts';

export interface Job {
  readonly url: string;
  /** The requested formats, each once, in request order. */
  readonly formats: readonly string[];
  readonly request: Readonly<ScrapeRequest>;
  readonly workspace: string;
  readonly signal: AbortSignal;
  /**
   * When the whole scrape (fetch included) must be over, in epoch ms; Infinity when only the
   * signal ends it. Content work in a worker gets what is left and is killed at this moment.
   */
  readonly deadline: number;
}

export function createJob(request: ScrapeRequest, workspace: string, signal: AbortSignal, deadline = Infinity): Job {
  const formats = [...new Set(request.formats)];
  return Object.freeze({ url: request.url, formats, request: Object.freeze({ ...request, formats }), workspace, signal, deadline });
}
