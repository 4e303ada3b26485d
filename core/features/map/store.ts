/**
 * A map as the API answers it: the mapper's links and warnings, stored in the workspace's result
 * store (endpoint `map`, the start URL as requested), so the answer's `id` reads it back
 * (GET /v1/results/{id}; the route notes it on the usage row for /v1/results/run/{usage id}) and
 * GET /v1/cache/lookup?endpoint=map finds the newest map of a URL. Stored only while the results
 * sink runs, the same rule as the scrape cache's: an operator who turned storing off gets no rows,
 * and the answer then has no `id`. Nothing answers a map from these rows: a map always runs.
 */
import type { Logger } from 'pino';
import type { ResultStore } from '../../services.ts';
import { sha256Hex } from '../../storage/values.ts';
import type { Mapper, MapRequest, MapResult } from './map.ts';

export const MAP_ENDPOINT = 'map';
/** Shape of the stored output (`{links, warnings?}`), part of the options hash; bump it when MapResult changes. */
const MAP_OUTPUT_VERSION = 1;

export interface StoredMap extends MapResult {
  /** The stored result's id; absent when results are not stored here. */
  id?: string;
}

/** What makes two maps of one URL the same request, in a fixed order (the rows' `options_hash`). */
export function mapOptionsHash(request: MapRequest): string {
  return sha256Hex(
    JSON.stringify([
      MAP_OUTPUT_VERSION,
      request.sitemap,
      request.filter_by_path,
      request.include_subdomains,
      request.limit,
      request.search ?? null,
    ]),
  );
}

export interface MapServiceDeps {
  mapper: Mapper;
  /** Null while the results sink is disabled. */
  results: ResultStore | null;
  logger: Logger;
}

export function createMapService({ mapper, results, logger }: MapServiceDeps) {
  return async function mapAndStore(request: MapRequest, workspace: string, signal?: AbortSignal): Promise<StoredMap> {
    const result = await mapper(request, workspace, signal);
    if (!results) return result;
    try {
      const stored = await results.save({
        workspace,
        endpoint: MAP_ENDPOINT,
        url: request.url,
        optionsHash: mapOptionsHash(request),
        output: { ...result },
      });
      return { id: stored.id, ...result };
    } catch (err) {
      // The links were found: a storage failure costs the id, not the answer.
      logger.error({ err, url: request.url }, 'map result not stored');
      return { ...result, warnings: [...(result.warnings ?? []), 'the result could not be stored: it has no id'] };
    }
  };
}

export type MapService = ReturnType<typeof createMapService>;
