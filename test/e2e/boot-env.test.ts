/**
 * Booting from an environment that mentions variables without values, as compose files and shells
 * produce them: an empty variable is unset, so Trawl starts on its defaults (embedded SQLite).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startTrawlServer, type TestServer } from '../helpers/trawl-server.ts';

describe('empty environment variables', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTrawlServer({ env: { DATABASE_URL: '', TRAWL_API_KEY: '', PORT: '', TRAWL_DATA_DIR: '', TRAWL_CONFIG: '' } });
  });
  afterAll(async () => server?.stop());

  test('an empty DATABASE_URL boots on SQLite', async () => {
    const health = await server.get('/health');
    expect(health.status).toBe(200);
    expect(health.body.database).toEqual({ dialect: 'sqlite', status: 'ok' });
  });

  test('an empty TRAWL_API_KEY configures no key: requests need none', async () => {
    expect(server.trawl.config.apiKey).toBeUndefined();
    const plugins = await server.get('/v1/plugins');
    expect(plugins.status).toBe(200);
  });
});
