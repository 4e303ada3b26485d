/**
 * A feature added by touching only its own folder and the two lists: the fixture feature
 * (test/fixtures/feature-notes: a config section, one table, one job, one route module) booted with
 * [...builtinFeatures, notes] and [...builtinRoutes, notesRoutes] over real HTTP, on SQLite and
 * Postgres. Its table is created by the boot's migrations, its job runs on the core queue, its
 * route is authenticated and workspace-scoped like every other, and it documents itself.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Kysely } from 'kysely';
import { builtinFeatures } from '../../core/features/index.ts';
import type { Storage } from '../../core/services.ts';
import { builtinRoutes } from '../../server/routes/index.ts';
import { testDatabases } from '../helpers/databases.ts';
import { startTrawlServer, type TestServer } from '../helpers/trawl-server.ts';
import { notesFeature } from '../fixtures/feature-notes/feature.ts';
import { notesRoutes } from '../fixtures/feature-notes/routes.ts';

const KEY = 'trawl_test_key_notes_0123';
const auth = { authorization: `Bearer ${KEY}` };

for (const database of testDatabases()) {
  describe(`${database.name}: a fixture feature added through the lists`, () => {
    let storage: Storage;
    let server: TestServer;
    beforeAll(async () => {
      // Opened for the built-in features only: the fixture's table must come from the boot.
      storage = await database.open();
      server = await startTrawlServer({
        storage,
        features: [...builtinFeatures, notesFeature],
        routes: [...builtinRoutes, notesRoutes],
        env: { TRAWL_NOTES_MAX_LENGTH: '40' },
        overrides: { apiKey: KEY, jobs: { pollIntervalMs: 20 } },
      });
    });
    afterAll(async () => {
      await server.stop();
      await storage.close();
    });

    test('the route stores a row, the job fills it in, the route reads it back', async () => {
      const created = await server.post('/v1/notes', { text: 'three short words' }, auth);
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ text: 'three short words', words: null });
      const row = await (storage.db as Kysely<any>).selectFrom('notes').selectAll().where('id', '=', created.body.id).executeTakeFirst();
      expect(row).toMatchObject({ workspace_id: 'default', text: 'three short words' });

      let note: any;
      for (let i = 0; i < 200 && !note?.words; i++) {
        note = (await server.get(`/v1/notes/${created.body.id}`, auth)).body;
        if (!note.words) await Bun.sleep(20);
      }
      expect(note).toEqual({ id: created.body.id, text: 'three short words', words: 3 });
    });

    test('its config section, authentication and errors work like the built-in routes', async () => {
      expect((await server.post('/v1/notes', { text: 'x' })).status).toBe(401);
      const long = await server.post('/v1/notes', { text: 'x'.repeat(41) }, auth);
      expect(long.status).toBe(400);
      expect(long.body.error).toContain('text');
      expect((await server.get(`/v1/notes/${crypto.randomUUID()}`, auth)).status).toBe(404);
    });

    test('it documents itself in /openapi.json next to the built-in paths', async () => {
      const doc = (await server.get('/openapi.json')).body;
      expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/v1/scrape', '/v1/crawl', '/v1/notes', '/v1/notes/{id}']));
      expect(doc.components.schemas.Note).toBeDefined();
      expect(doc.paths['/v1/notes'].post.requestBody.content['application/json'].schema.properties.text.maxLength).toBe(40);
    });
  });
}
