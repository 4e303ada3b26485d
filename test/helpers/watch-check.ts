/** A manual watch check from a test: POST /v1/watch/{id}/check, then the snapshot it appended. */
import { expect } from 'bun:test';
import type { TestServer } from './trawl-server.ts';

/** Resolves with the new newest snapshot (the timeline may be at its retention, so not by count). */
export async function checkAndWait(server: TestServer, id: string, timeoutMs = 20_000): Promise<any> {
  const newest = (await server.get(`/v1/watch/${id}`)).body.snapshots[0]?.id;
  const answer = await server.post(`/v1/watch/${id}/check`, undefined);
  expect(answer.status).toBe(202);
  expect(answer.body).toEqual({ status: 'checking' });
  for (const deadline = Date.now() + timeoutMs; ; await Bun.sleep(30)) {
    const [latest] = (await server.get(`/v1/watch/${id}`)).body.snapshots;
    if (latest && latest.id !== newest) return latest;
    if (Date.now() > deadline) throw new Error(`no new snapshot of watch ${id}`);
  }
}
