/**
 * What the start-up log says about API keys, from a real `bun server/main.ts`: self-hosted without
 * a key warns that every request is allowed; cloud mode, which refuses every request without a
 * workspace key, says that instead (and never that everything is allowed).
 */
import { afterEach, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { firstMatch } from '../../bench/processes.ts';

const ROOT = join(import.meta.dir, '../..');
const started: Array<{ proc: ReturnType<typeof Bun.spawn>; dataDir: string }> = [];

afterEach(async () => {
  for (const { proc, dataDir } of started.splice(0)) {
    proc.kill('SIGTERM');
    await proc.exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
});

/** The log lines up to and including "listening", and then a request without a key. */
async function boot(env: Record<string, string>): Promise<{ lines: string[]; status: number }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'trawl-startup-'));
  const proc = Bun.spawn(['bun', join(ROOT, 'server/main.ts'), '--port', '0'], {
    cwd: ROOT,
    stdout: 'pipe',
    stderr: 'pipe',
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', TRAWL_DATA_DIR: dataDir, TRAWL_LOG_LEVEL: 'info', ...env },
  });
  started.push({ proc, dataDir });
  const lines: string[] = [];
  const url = await firstMatch(proc, (line) => {
    lines.push(line);
    return /"url":"(http:\/\/[^"]+)"/.exec(line)?.[1];
  });
  return { lines, status: (await fetch(`${url}/v1/plugins`)).status };
}

test('cloud mode: the log says every request needs a key, never that every request is allowed', async () => {
  const { lines, status } = await boot({ TRAWL_MODE: 'cloud' });
  expect(status).toBe(401);
  expect(lines.join('\n')).not.toContain('every request is allowed');
  expect(lines.some((line) => line.includes('every request needs a workspace API key'))).toBe(true);
}, 60_000);

test('self-hosted without a key: the warning stays, and it is true', async () => {
  const { lines, status } = await boot({});
  expect(status).toBe(200);
  expect(lines.some((line) => line.includes('every request is allowed'))).toBe(true);
}, 60_000);
