/**
 * The events of a run's stream, as async generators: every finished page after `lastSeq`, in
 * sequence order, then the run itself once it is over and every page has been sent (`runPages`);
 * `runEvents` presents them as the SSE stream's `page` and `end` events. The run row is read
 * before the pages each round: when it says the run is over, every page up to its final sequence
 * number is already committed (record.ts), so the end never overtakes a page. Pages come from the
 * database, so a stream started on any process sees the work of all of them.
 */
import { isTerminal, pageItem, runSummary, type PresentResult } from './present.ts';
import type { CrawlService } from './service.ts';
import type { PageRow, RunKind, RunRow } from './rows.ts';

export interface StreamEvent {
  /** The page's sequence number; absent on the final event, so a client's Last-Event-ID stays on the last page. */
  id?: number;
  event: 'page' | 'end';
  data: Record<string, unknown>;
}

export type RunStreamItem = { page: PageRow } | { end: RunRow };

const BATCH = 100;

export async function* runPages(
  service: CrawlService,
  target: { workspace: string; kind: RunKind; id: string },
  lastSeq: number,
  signal: AbortSignal,
  pollMs = 250,
): AsyncGenerator<RunStreamItem> {
  let last = lastSeq;
  while (!signal.aborted) {
    const run = await service.find(target.workspace, target.kind, target.id);
    const pages = await service.pagesAfter(run, last, BATCH);
    for (const page of pages) {
      last = page.seq;
      yield { page };
    }
    if (pages.length === BATCH) continue;
    if (isTerminal(run.status) && last >= run.seq) {
      yield { end: run };
      return;
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, pollMs);
      signal.addEventListener(
        'abort',
        () => {
          clearTimeout(timer);
          resolve();
        },
        { once: true },
      );
    });
  }
}

export async function* runEvents(
  service: CrawlService,
  target: { workspace: string; kind: RunKind; id: string },
  lastSeq: number,
  signal: AbortSignal,
  present: PresentResult,
  pollMs = 250,
): AsyncGenerator<StreamEvent> {
  for await (const item of runPages(service, target, lastSeq, signal, pollMs)) {
    if ('page' in item) yield { id: item.page.seq, event: 'page', data: pageItem(item.page, present) };
    else yield { event: 'end', data: runSummary(item.end) };
  }
}
