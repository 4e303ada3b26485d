/**
 * Which waiting task a free worker takes: the first in queue order that may run now (a heavy one
 * only below `maxHeavy`), passing over tasks of a group (a workspace) that already holds its share
 * of the workers while a task of a group below its share waits. The queue order (FairOrder) says
 * who goes next, not for how long: when each page takes seconds, a burst's virtual clock falls
 * behind the real one, and a tenant arriving mid-burst waited behind much of it with every worker
 * busy with the burst. Work-conserving: with no such task waiting, any group takes a free worker.
 */

export interface Waiting {
  heavy: boolean;
  /** Tasks without a group (a diff, a feature's parse) are never held back. */
  group?: string;
}

/** The queue index a free worker takes, or -1 when none may run (heavy tasks only, heavy slots full). */
export function pickNext(queue: readonly Waiting[], running: readonly Waiting[], size: number, heavyFull: boolean): number {
  const held = new Map<string, number>();
  for (const task of running) if (task.group !== undefined) held.set(task.group, (held.get(task.group) ?? 0) + 1);
  const groups = new Set(held.keys());
  for (const task of queue) if (task.group !== undefined) groups.add(task.group);
  const share = Math.max(1, Math.ceil(size / Math.max(1, groups.size)));
  let first = -1;
  for (let i = 0; i < queue.length; i++) {
    const task = queue[i]!;
    if (task.heavy && heavyFull) continue;
    if (first < 0) first = i;
    if (task.group === undefined || (held.get(task.group) ?? 0) < share) return i;
  }
  return first;
}
