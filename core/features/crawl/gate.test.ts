/** The per-host politeness gate: concurrency per host, delays, aborting a waiter. */
import { describe, expect, test } from 'bun:test';
import { HostGate } from './gate.ts';

describe('host gate', () => {
  test('at most perHost fetches of a host at once; the next one starts when one ends', async () => {
    const gate = new HostGate(2, 0);
    const first = await gate.acquire('a.test', 0);
    await gate.acquire('a.test', 0);
    expect(gate.busyHosts()).toEqual(['a.test']);
    let third = false;
    const pending = gate.acquire('a.test', 0).then((release) => {
      third = true;
      return release;
    });
    const other = await gate.acquire('b.test', 0);
    await Bun.sleep(20);
    expect(third).toBe(false);
    first();
    (await pending)();
    expect(third).toBe(true);
    other();
  });

  test('a delay holds the host busy after a start, and a waiter can be aborted', async () => {
    let freed = 0;
    const gate = new HostGate(4, 0, () => freed++);
    const release = await gate.acquire('slow.test', 60_000);
    release();
    expect(freed).toBe(1);
    expect(gate.busyHosts()).toEqual(['slow.test']);
    const controller = new AbortController();
    const waiting = gate.acquire('slow.test', 60_000, controller.signal);
    controller.abort(new Error('shutting down'));
    await expect(waiting).rejects.toThrow('shutting down');
  });

  test("a hold-off (a 429's Retry-After) keeps the host busy and its next start waiting", async () => {
    const gate = new HostGate(4, 0);
    await gate.holdOff('busy.test', 300);
    expect(gate.busyHosts()).toEqual(['busy.test']);
    const started = Date.now();
    (await gate.acquire('busy.test', 0))();
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    (await gate.acquire('other.test', 0))(); // other hosts are not held
  });
});
