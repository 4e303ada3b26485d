/**
 * The server-process helper itself: it starts a real server, finds its URL, polls /health and
 * reads the process tree's memory, children included.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { rssMb } from '../../bench/processes.ts';
import { pollHealth, processTree, startServerProcess, treeRssMb, type ServerProcess } from './server-process.ts';

describe('server process helper', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServerProcess();
  });
  afterAll(async () => server?.stop());

  test('the server answers on the URL it printed, and every health poll of an idle server answers', async () => {
    const polling = pollHealth(server.url, { intervalMs: 100 });
    const scrape = await server.post('/v1/scrape', { url: 'not a url at all' });
    expect(scrape.status).toBe(400);
    await Bun.sleep(500);
    const polls = await polling.stop();
    expect(polls.polls).toBeGreaterThanOrEqual(4);
    expect(polls.fraction).toBe(1);
  });

  test('a stopped server fails every poll', async () => {
    const gone = await startServerProcess();
    const url = gone.url;
    await gone.stop();
    expect(await pollHealth(url, { intervalMs: 50, answerWithinMs: 200 }).stop()).toMatchObject({ polls: 1, answered: 0, fraction: 0 });
  });

  test('tree RSS counts the server and its descendants', async () => {
    expect(server.treeRssMb()).toBeGreaterThan(20);
    const shell = Bun.spawn(['sh', '-c', 'sleep 30 & sleep 30 & wait'], { stdout: 'ignore' });
    try {
      for (let i = 0; i < 50 && processTree(shell.pid).length < 3; i++) await Bun.sleep(20);
      expect(processTree(shell.pid)).toHaveLength(3);
      expect(treeRssMb(shell.pid)).toBeGreaterThan(rssMb(shell.pid));
    } finally {
      for (const pid of processTree(shell.pid).reverse()) process.kill(pid, 'SIGKILL');
      await shell.exited;
    }
  });
});
