/**
 * Sharing workers between groups (share.ts): a group at its share lets a waiting group below its
 * share pass even when its own tasks are placed earlier in the queue; alone, a group takes every
 * worker; tasks without a group and the heavy cap are as before. Then the same through a real pool.
 */
import { afterEach, describe, expect, test } from 'bun:test';
import { WorkerPool } from './pool.ts';
import { pickNext, type Waiting } from './share.ts';
import { task } from './task.ts';
import type * as Tasks from './fixtures/tasks.ts';

const sleep = task<typeof Tasks.sleep>(new URL('./fixtures/tasks.ts', import.meta.url), 'sleep');
const of = (group?: string, heavy = false): Waiting => ({ group, heavy });

describe('pickNext', () => {
  test('a group at its share lets a group below its share go first; alone it takes every worker', () => {
    expect(pickNext([of('a'), of('a'), of('b')], [of('a')], 2, false)).toBe(2);
    expect(pickNext([of('a'), of('a')], [of('a')], 2, false)).toBe(0);
    // Four workers, two groups: two each before the other is held back.
    expect(pickNext([of('a'), of('b')], [of('a')], 4, false)).toBe(0);
    expect(pickNext([of('a'), of('b')], [of('a'), of('a')], 4, false)).toBe(1);
  });

  test('when every waiting group is at its share, the queue order decides (no worker stays idle)', () => {
    expect(pickNext([of('a'), of('b')], [of('a'), of('b')], 3, false)).toBe(0);
  });

  test('tasks without a group are never held back; heavy ones still wait for a heavy slot', () => {
    expect(pickNext([of(), of('b')], [of('a'), of()], 2, false)).toBe(0);
    expect(pickNext([of('b', true), of('a')], [of('a')], 2, true)).toBe(1);
    expect(pickNext([of('b', true)], [of('a', true)], 2, true)).toBe(-1);
  });
});

describe('in a pool', () => {
  const pools: WorkerPool[] = [];
  afterEach(() => {
    for (const p of pools.splice(0)) p.close();
  });

  test("a group's later task starts at the first free worker, ahead of the earlier-placed tasks of a group holding its share", async () => {
    const workers = new WorkerPool({ size: 2 });
    pools.push(workers);
    await workers.prestart();
    // A's clock is behind: its tasks are all placed before B's. A0 frees its worker first.
    const a = [0, 1, 2, 3].map((order) => workers.run(sleep, { ms: order === 0 ? 300 : 600, label: `A${order}` }, { order, group: 'a' }));
    const b = workers.run(sleep, { ms: 5, label: 'B' }, { order: 10, group: 'b' });
    const started = (await Promise.all([...a, b])).sort((x, y) => x.startedAt - y.startedAt).map((r) => r.label);
    expect(started.slice(0, 2).sort()).toEqual(['A0', 'A1']);
    expect(started.slice(2)).toEqual(['B', 'A2', 'A3']);
  });
});
