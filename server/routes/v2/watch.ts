/**
 * The WebSocket on `/v2/crawl/{id}` and `/v2/batch/scrape/{id}` that the Firecrawl SDK's
 * `watcher()` opens (its API key as the sub-protocol): `catchup` with the run's counts while it
 * runs, one `document` message per finished page (all of them, from the first), then the end —
 * `done` for a completed run, a snapshot with the status for a failed or cancelled one (the SDK
 * reads `done` as completed) — and a normal close. An unknown id is an `error` message. Documents
 * are never announced as finished before every page was sent (core/features/crawl/stream.ts).
 */
import { storedRequest } from '../../../core/features/crawl/legacy.ts';
import { isTerminal } from '../../../core/features/crawl/present.ts';
import type { CrawlService } from '../../../core/features/crawl/service.ts';
import type { RunKind } from '../../../core/features/crawl/store.ts';
import { runPages } from '../../../core/features/crawl/stream.ts';
import type { SocketRoute } from '../../route.ts';
import { checkJobId } from '../../wire/v2/errors.ts';
import { presentPage, presentRunStatus } from '../../wire/v2/present.ts';

export function watchSocket(service: CrawlService, kind: RunKind, path: string): SocketRoute {
  return {
    path: `${path}/:id`,
    async stream(socket, { params, workspace }) {
      const send = (message: Record<string, unknown>) => socket.send(JSON.stringify(message));
      let run;
      try {
        run = await service.find(workspace, kind, checkJobId(params.id ?? ''));
      } catch (err) {
        await send({ type: 'error', error: (err as Error).message });
        return;
      }
      const options = storedRequest(kind, run.request).scrapeOptions;
      if (!isTerminal(run.status)) await send({ type: 'catchup', data: presentRunStatus(run, [], null) });
      for await (const item of runPages(service, { workspace, kind, id: run.id }, 0, socket.signal)) {
        if ('page' in item) {
          if (item.page.outcome === 'completed') await send({ type: 'document', data: presentPage(item.page, options) });
          continue;
        }
        const { data: _none, success: _ok, ...counts } = presentRunStatus(item.end, [], null);
        // Without `data` at the top: the SDK reads `body.data || body` for a snapshot's status.
        await send(item.end.status === 'completed' ? { type: 'done', data: counts } : counts);
      }
    },
  };
}
