/**
 * Waiting for an asynchronous job (a crawl, a batch, a lead batch) by polling its status route,
 * with progress on stderr. Ctrl-C cancels the job where the API can (`cancel`), so an interrupted
 * command leaves no work running behind it.
 */
import type { Api } from './client.ts';
import { CliError } from './errors.ts';
import { startProgress, type ProgressOptions } from './progress.ts';

export interface JobStatus {
  status: string;
  total: number;
  completed: number;
  failed: number;
  error?: string | null;
}

export interface FollowOptions extends ProgressOptions {
  /** The status route (`/v1/crawl/<id>`). */
  path: string;
  /** What counts as over. */
  finished: (status: string) => boolean;
  /** The cancel route, if the job has one. */
  cancel?: string;
  /** Off: no progress at all (`--no-progress`). */
  show: boolean;
  pollMs?: number;
}

/** Polls until the job is over and answers its last status. */
export async function follow<S extends JobStatus>(api: Api, options: FollowOptions): Promise<S> {
  const progress = options.show ? startProgress(options) : null;
  let interrupted = false;
  const onInterrupt = () => {
    interrupted = true;
  };
  process.once('SIGINT', onInterrupt);
  try {
    for (;;) {
      const status = await api.call<S>('GET', options.path);
      progress?.update(status.completed + status.failed, status.total);
      if (options.finished(status.status)) return status;
      if (interrupted) {
        if (options.cancel) await api.call('DELETE', options.cancel);
        throw new CliError(`Interrupted${options.cancel ? `: ${options.label} cancelled` : ''}`, 1);
      }
      await Bun.sleep(options.pollMs ?? 300);
    }
  } finally {
    process.off('SIGINT', onInterrupt);
    progress?.stop();
  }
}

/** Every item of a paginated answer: `data` of each page, following `next` links. */
export async function allPages<T>(api: Api, first: string): Promise<T[]> {
  const items: T[] = [];
  for (let path: string | undefined = first; path; ) {
    const page: { data?: T[]; next?: string } = await api.call('GET', path);
    items.push(...(page.data ?? []));
    path = page.next;
  }
  return items;
}
