/**
 * End to end: a request line and headers past `server.maxHeaderBytes` get a JSON 431 with `{error}`,
 * not Bun's bare one — in this process with a small limit, and from a real `bun start` (which raises
 * Bun's own limit above the default setting) for a 60 KB query string.
 */
import { afterAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTrawlServer } from '../helpers/trawl-server.ts';

const ROOT = new URL('../..', import.meta.url).pathname;
const started: Array<{ proc: ReturnType<typeof Bun.spawn>; dataDir: string }> = [];

afterAll(async () => {
  for (const { proc, dataDir } of started) {
    proc.kill();
    await proc.exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('past server.maxHeaderBytes: a JSON 431 naming the setting; below it, the request is served', async () => {
  const server = await startTrawlServer({ overrides: { server: { maxHeaderBytes: 4096 } } });
  try {
    const long = await server.get(`/v1/plugins?q=${'a'.repeat(6000)}`);
    expect(long.status).toBe(431);
    expect(long.body).toEqual({ error: expect.stringContaining('exceed 4096 bytes (server.maxHeaderBytes)') });
    const header = await server.get('/v1/plugins', { 'x-padding': 'b'.repeat(5000) });
    expect(header.status).toBe(431);
    expect((await server.get('/v1/plugins', { 'x-padding': 'b'.repeat(2000) })).status).toBe(200);
  } finally {
    await server.stop();
  }
});

test('`bun start`: a 60 KB query string is a JSON 431', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'trawl-431-'));
  const proc = Bun.spawn(['bun', 'run', 'start', '--port', '0'], {
    cwd: ROOT,
    stdout: 'pipe',
    stderr: 'pipe',
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', TRAWL_DATA_DIR: dataDir, TRAWL_LOG_LEVEL: 'info' },
  });
  started.push({ proc, dataDir });
  let log = '';
  let url: string | undefined;
  const decoder = new TextDecoder();
  for await (const chunk of proc.stdout as ReadableStream<Uint8Array>) {
    log += decoder.decode(chunk);
    url = /"url":"(http:\/\/[^"]+)"/.exec(log)?.[1];
    if (url) break;
  }
  expect(url).toBeDefined();
  expect(log).not.toContain('bare 431');
  const answer = await fetch(`${url}/v1/plugins?q=${'a'.repeat(60_000)}`);
  expect(answer.status).toBe(431);
  expect(answer.headers.get('content-type')).toContain('application/json');
  expect(await answer.json()).toEqual({ error: expect.stringContaining('server.maxHeaderBytes') });
}, 60_000);
