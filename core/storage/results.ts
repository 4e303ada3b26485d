/**
 * The result store: every scrape output (the internal ScrapeResult, which each wire format
 * presents on the way out), kept per workspace. It doubles as the response cache — a request is
 * answered from here when a row with the same workspace, endpoint, URL and options hash is younger
 * than the cache TTL — so `optionsHash` below is the single definition of "the same request",
 * shared by the writer (the results sink) and the reader (core/scrape.ts).
 */
import type { Selectable } from 'kysely';
import type { Job } from '../job.ts';
import type { ResultStore, Storage, StoredResult, StoredResultSummary } from '../services.ts';
import type { ResultsTable } from './schema.ts';
import { boundedWindow, nowIso, readInt, readJson, sha256Hex } from './values.ts';

/** Request fields that cannot change the output, so two requests differing only here share a cache entry. */
const NOT_PART_OF_OUTPUT = new Set(['noCache', 'maxAgeMs', 'storeInCache']);

/**
 * Shape of the stored output, part of the hash. Rows written before the internal model held the
 * /v1 response keyed by a hash of the /v1 body; with this in the hash they are never found again,
 * so no row is served in a shape its reader does not expect. Bump it when ScrapeResult changes,
 * or when what a result holds changes (3: every link of the page, the headline kept).
 */
export const RESULT_MODEL_VERSION = 3;

/** Sorted keys at every depth and no undefined members: equal requests give equal text. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(record).sort()) {
      if (record[key] !== undefined) out[key] = canonical(record[key]);
    }
    return out;
  }
  return value;
}

/**
 * sha256 hex of the request fields that shape the output. Formats are a set (their order does
 * not change the result), so they are sorted; every other array (actions, selectors) keeps its
 * order because there it can matter.
 */
export function optionsHash(job: Pick<Job, 'request'>): string {
  const relevant: Record<string, unknown> = { resultModel: RESULT_MODEL_VERSION };
  for (const [key, value] of Object.entries(job.request)) {
    if (!NOT_PART_OF_OUTPUT.has(key)) relevant[key] = value;
  }
  relevant.formats = [...new Set(job.request.formats)].sort();
  return sha256Hex(JSON.stringify(canonical(relevant)));
}

type SummaryRow = Pick<Selectable<ResultsTable>, 'id' | 'workspace_id' | 'endpoint' | 'url' | 'options_hash' | 'created_at'>;
const SUMMARY_COLUMNS = ['id', 'workspace_id', 'endpoint', 'url', 'options_hash', 'created_at'] as const;

function toSummary(row: SummaryRow): StoredResultSummary {
  return {
    id: row.id,
    workspace: row.workspace_id,
    endpoint: row.endpoint,
    url: row.url,
    optionsHash: row.options_hash,
    createdAt: row.created_at,
  };
}

function toStoredResult(row: Selectable<ResultsTable>): StoredResult {
  return { ...toSummary(row), output: readJson<Record<string, unknown>>(row.output) };
}

const MAX_PER_PAGE = 1000;

export function createResultStore(storage: Storage): ResultStore {
  const { db } = storage;
  type Query = ReturnType<typeof byUrl>;
  const byUrl = (workspace: string, endpoint: string, url: string) =>
    db
      .selectFrom('results')
      .selectAll()
      .where('workspace_id', '=', workspace)
      .where('endpoint', '=', endpoint)
      .where('url_hash', '=', sha256Hex(url))
      // The hash narrows the index scan; the URL itself is compared so a collision cannot leak.
      .where('url', '=', url);
  /** The newest row for a workspace, endpoint and URL, narrowed further by `narrow` (the cache: options and age). */
  const newest = async (workspace: string, endpoint: string, url: string, narrow: (q: Query) => Query = (q) => q) => {
    const row = await narrow(byUrl(workspace, endpoint, url))
      .orderBy('created_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row ? toStoredResult(row) : null;
  };

  return {
    async save(input) {
      const row: Selectable<ResultsTable> = {
        id: crypto.randomUUID(),
        workspace_id: input.workspace,
        endpoint: input.endpoint,
        url: input.url,
        url_hash: sha256Hex(input.url),
        options_hash: input.optionsHash,
        output: JSON.stringify(input.output),
        created_at: nowIso(),
      };
      await db.insertInto('results').values(row).execute();
      // Built from the stored text so the caller sees exactly what a later read returns.
      return toStoredResult(row);
    },

    async findFresh(workspace, endpoint, url, hash, maxAgeSeconds) {
      if (!(maxAgeSeconds > 0)) return null;
      const cutoff = new Date(Date.now() - maxAgeSeconds * 1000).toISOString();
      return newest(workspace, endpoint, url, (q) => q.where('options_hash', '=', hash).where('created_at', '>=', cutoff));
    },

    async get(workspace, id) {
      const row = await db.selectFrom('results').selectAll().where('workspace_id', '=', workspace).where('id', '=', id).executeTakeFirst();
      return row ? toStoredResult(row) : null;
    },

    latest: (workspace, endpoint, url) => newest(workspace, endpoint, url),

    async list(workspace, query) {
      // Out-of-range values are clamped rather than rejected: the route has already validated what it exposes.
      const { limit, offset } = boundedWindow(query, MAX_PER_PAGE);
      let base = db.selectFrom('results').where('workspace_id', '=', workspace);
      if (query.endpoint !== undefined) base = base.where('endpoint', '=', query.endpoint);
      const [counted, rows] = await Promise.all([
        base.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow(),
        base.select(SUMMARY_COLUMNS).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute(),
      ]);
      return { items: rows.map(toSummary), total: readInt(counted.total) };
    },
  };
}
