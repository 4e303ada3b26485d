/**
 * The WebSocket on `/v2/crawl/{id}` and `/v2/batch/scrape/{id}` that the Firecrawl SDK's
 * `watcher()` opens (its API key as the sub-protocol): `catchup` with the run's counts while it
 * runs, one `document` message per finished page, then a normal close once the run is over. An
 * unknown id is an `error` message.
 *
 * Every page goes out exactly once because one cursor walks them all: the page sequence numbers
 * are gap-free in commit order (record.ts), and the stream reads from the first page on, so the
 * pages that finished before the socket opened and those that finish later come from the same
 * reads — no catchup read that a later subscription could miss a page after or send one again.
 * The run is read before its pages, so the close never overtakes a page (stream.ts).
 *
 * Why the end is a close and not a `done` message (as Firecrawl's own server does it): the SDKs
 * read `done` differently — the JS watcher's `done` event carries only the message's `data.data`,
 * the Python watcher adds that list to the documents it already received — so no payload is right
 * for both, and one holding every document would be a single message as large as the whole run.
 * On a close before a terminal status both fall back to the HTTP status, which pages the documents
 * (`next`), and end with all of them; the JS SDK skips those it already emitted (same JSON).
 */
import { storedRequest } from '../../../core/features/crawl/legacy.ts';
import { isTerminal } from '../../../core/features/crawl/present.ts';
import type { CrawlService } from '../../../core/features/crawl/service.ts';
import type { RunKind } from '../../../core/features/crawl/rows.ts';
import { runPages } from '../../../core/features/crawl/stream.ts';
import type { SocketRoute } from '../../route.ts';
import { checkJobId } from '../../wire/v2/errors.ts';
import { presentPage, presentRunStatus } from '../../wire/v2/present.ts';

export function crawlWatcherSocket(service: CrawlService, kind: RunKind, path: string): SocketRoute {
  return {
    path: `${path}/:id`,
    async stream(socket, { params, workspace }) {
      const send = (message: Record<string, unknown>) => socket.send(JSON.stringify(message));
      let run: Awaited<ReturnType<typeof service.find>>;
      try {
        run = await service.find(workspace, kind, checkJobId(params.id ?? ''));
      } catch (err) {
        await send({ type: 'error', error: (err as Error).message });
        return;
      }
      const options = storedRequest(kind, run.request).scrapeOptions;
      // A terminal status here would end the SDK's watcher before the documents that follow.
      if (!isTerminal(run.status)) await send({ type: 'catchup', data: presentRunStatus(run, [], null) });
      for await (const item of runPages(service, { workspace, kind, id: run.id }, 0, socket.signal)) {
        // The last item is the run's end: returning closes the socket (server/sockets.ts).
        if ('page' in item && item.page.outcome === 'completed') await send({ type: 'document', data: presentPage(item.page, options) });
      }
    },
  };
}
