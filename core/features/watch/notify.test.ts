// What a watch's notification says and where its link points: the dashboard's diff of the snapshot
// at server.publicUrl, or at this server's own address when none is set.
import { describe, expect, test } from 'bun:test';
import { changeNotification, diffLink, publicBase } from './notify.ts';
import type { Snapshot, Watch } from './records.ts';

const server = (over: object) => ({
  host: '127.0.0.1',
  port: 3000,
  maxBodyBytes: 1,
  maxWebSockets: 1,
  maxWebSocketsPerWorkspace: 1,
  maxHeaderBytes: 1,
  ...over,
});
const watch = { id: 'w 1', name: 'Leith ferry', url: 'https://ferries.example/leith' } as Watch;
const snapshot = {
  id: 's2',
  title: '',
  excerpt: '',
  diffSummary: null,
  reason: 'price 18.5 below 20',
  checkedAt: '2026-11-28T09:00:00.000Z',
} as unknown as Snapshot;

describe('watch notifications', () => {
  test('the link: server.publicUrl, else this server (localhost for an any-address host)', () => {
    expect(publicBase(server({ publicUrl: 'https://trawl.example/base/' }))).toBe('https://trawl.example/base');
    expect(publicBase(server({}))).toBe('http://127.0.0.1:3000');
    expect(publicBase(server({ host: '0.0.0.0', port: 8080 }))).toBe('http://localhost:8080');
    expect(publicBase(server({ host: '::1' }))).toBe('http://[::1]:3000');
    expect(diffLink('https://trawl.example', watch, snapshot)).toBe('https://trawl.example/dashboard?watch=w%201&to=s2');
  });

  test('a notification without a title or a text change still says what and why', () => {
    const n = changeNotification(watch, snapshot, 'https://trawl.example/d');
    expect(n.source).toBe('Leith ferry');
    expect(n.items[0]).toMatchObject({
      heading: 'https://ferries.example/leith',
      text: 'The text did not change (see the reason).',
      facts: [{ name: 'Reason', value: 'price 18.5 below 20' }],
    });
    const changed = changeNotification(watch, { ...snapshot, title: 'Timetable', excerpt: '09:12 → 09:47' }, 'https://trawl.example/d');
    expect(changed.items[0]).toMatchObject({
      heading: 'Timetable',
      text: '09:12 → 09:47',
      link: { url: 'https://trawl.example/d', label: 'See what changed' },
    });
  });
});
