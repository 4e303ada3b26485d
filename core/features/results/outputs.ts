/**
 * The answers of billed calls, kept so every paid run can be read again: the route runner hands the
 * JSON it answered to `keep` (server/route-runner.ts), which stores it in the result store under the
 * call's endpoint and key (its URL; a search's query), and the usage row names the stored id
 * (GET /v1/results/run/{usage id}). Calls whose handler already stored a result (a scrape through the
 * results sink, a map) name that one instead. Bounded: an answer larger than
 * `results.maxOutputBytes` is answered in full but not kept (`keep` says so), and rows expire after
 * `results.retentionDays` (retention.ts). Nothing is kept while the results sink is disabled.
 */
import type { Logger } from 'pino';
import type { ResultStore } from '../../services.ts';
import { sha256Hex } from '../../storage/values.ts';

/**
 * The endpoints GET /v1/cache/lookup answers for: every billed call whose answer is keyed by one URL
 * (a search by its query). Batches, lead batches and audience exports have no one URL: their
 * answers are read by run or result id.
 */
export const LOOKUP_ENDPOINTS = ['scrape', 'crawl', 'map', 'search', 'extract', 'summarize', 'diff', 'brand', 'lead', 'endpoints'] as const;

/** Why an answer was not kept, for the run's 404. */
export type NotKept = 'too_large' | 'not_stored';

export interface KeptAnswer {
  /** The stored result's id; null when the answer was not kept. */
  id: string | null;
  reason?: NotKept;
}

export interface RunOutputs {
  /** Stores `json` (the answer's JSON text) as the output of a call to `endpoint` keyed by `key`. */
  keep(workspace: string, endpoint: string, key: string, json: string): Promise<KeptAnswer>;
  readonly maxOutputBytes: number;
}

/** The options hash of a kept answer: its text, so identical answers of one key share a hash. */
const answerHash = (json: string) => sha256Hex(json);

export function createRunOutputs(store: ResultStore | null, maxOutputBytes: number, logger: Logger): RunOutputs {
  return {
    maxOutputBytes,
    async keep(workspace, endpoint, key, json) {
      if (!store) return { id: null, reason: 'not_stored' };
      const bytes = Buffer.byteLength(json);
      if (bytes > maxOutputBytes) {
        logger.info({ endpoint, bytes, maxOutputBytes }, 'answer over results.maxOutputBytes: not stored');
        return { id: null, reason: 'too_large' };
      }
      const output = JSON.parse(json) as unknown;
      // The store keeps objects; an answer of another JSON type is wrapped so it reads back whole.
      const record =
        output !== null && typeof output === 'object' && !Array.isArray(output) ? (output as Record<string, unknown>) : { value: output };
      const stored = await store.save({ workspace, endpoint, url: key, optionsHash: answerHash(json), output: record });
      return { id: stored.id };
    },
  };
}
