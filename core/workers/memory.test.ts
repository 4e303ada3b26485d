/**
 * The RSS watchdog with a fake RSS reading: it stops a task past the budget, does not stop a
 * second one while the first one's memory is still leaving RSS, but does when memory grows past
 * the level of the first stop (a task that started right after it and allocates fast).
 */
import { expect, test } from 'bun:test';
import { RssWatchdog } from './memory.ts';

const MB = 2 ** 20;

test('after a stop, only new growth past that level stops another task', async () => {
  let rss = 500 * MB;
  const stops: number[] = [];
  const watchdog = new RssWatchdog(
    900 * MB,
    5,
    (bytes) => stops.push(Math.round(bytes / MB)) > 0,
    () => rss,
  );
  watchdog.start();
  const tick = () => Bun.sleep(20);
  try {
    await tick();
    expect(stops).toEqual([]);
    rss = 1000 * MB;
    await tick();
    expect(stops).toEqual([1000]);
    rss = 1040 * MB; // the stopped task's memory not given back yet
    await tick();
    expect(stops).toEqual([1000]);
    rss = 1100 * MB; // the next task grows past it within the quiet second
    await tick();
    expect(stops).toEqual([1000, 1100]);
  } finally {
    watchdog.stop();
  }
});
