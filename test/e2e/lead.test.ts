/**
 * End to end: POST /v1/lead on a small German company site (JSON-LD, imprint, plain, mailto,
 * obfuscated, Cloudflare-protected and international contacts) and an American one with only
 * microdata and page text; the model's summary and industry only with a model; POST
 * /v1/lead/batch and GET /v1/lead/batch/{id} through their lifecycle on SQLite and Postgres, in
 * cloud mode: limits, per-URL errors, credits, workspace isolation and lead.batch.completed.
 */
import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from 'bun:test';
import { startTrawlServer, type TestServer } from '../helpers/trawl-server.ts';
import { testDatabases } from '../helpers/databases.ts';
import type { Storage } from '../../core/services.ts';
import { startCompanySite, type CompanySite } from '../fixtures/company-site/site.ts';
import { OPENAI_TEST_KEY, startOpenAiServer, type OpenAiServer } from '../servers/openai.ts';
import { lastUser } from '../servers/llm-answers.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../servers/webhook-receiver.ts';

setDefaultTimeout(60_000);

let site: CompanySite;
let bare: TestServer;
let withModel: TestServer;
let openai: OpenAiServer;

beforeAll(async () => {
  site = startCompanySite();
  openai = startOpenAiServer({
    answer: (conversation) =>
      JSON.stringify(
        lastUser(conversation).includes('Greif')
          ? { summary: 'Nordlicht Robotik builds adaptive robot grippers for food and logistics.', industry: 'Robotics' }
          : { summary: 'A company.', industry: 'Unknown' },
      ),
  });
  [bare, withModel] = await Promise.all([
    startTrawlServer({ overrides: { fetch: { resolve: site.resolve } } }),
    startTrawlServer({
      overrides: {
        fetch: { resolve: site.resolve },
        plugins: { llm: { openai: { model: 'gpt-4o-mini', apiKey: OPENAI_TEST_KEY, baseUrl: `${openai.url}/v1` } } },
      },
    }),
  ]);
});
afterAll(async () => {
  await Promise.all([bare.stop(), withModel.stop()]);
  await Promise.all([site.stop(), openai.stop()]);
});

describe('POST /v1/lead', () => {
  test('a German company: structured data first, every contact page read, contacts decoded and in E.164', async () => {
    const res = await bare.post('/v1/lead', { url: site.de('/') });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      url: site.de('/'),
      company: {
        name: 'Nordlicht Robotik GmbH',
        description: 'Adaptive Greifsysteme aus Berlin.',
        logo: site.de('/assets/nordlicht-logo.png'),
        founded: '2011',
        employees: 48,
        address: {
          street: 'Lichtstraße 12',
          postal_code: '10115',
          locality: 'Berlin',
          region: null,
          country: 'DE',
          text: 'Lichtstraße 12, 10115 Berlin, DE',
        },
      },
      contacts: {
        // The site's own domain first; within that, pages in reading order and links before text before obfuscated text.
        emails: [
          'info@nordlicht-robotik.de',
          'presse@nordlicht-robotik.de',
          'vertrieb@nordlicht-robotik.de',
          'jana.berg@nordlicht-robotik.de',
          'support@helpdesk-partner.com',
        ],
        phones: ['+49301234567', '+493098765432', '+442079460958'],
      },
      socials: {
        linkedin: 'https://linkedin.com/company/nordlicht-robotik',
        x: 'https://twitter.com/nordlichtbots',
        instagram: 'https://instagram.com/nordlicht.robotik',
      },
      pages: [
        { url: site.de('/'), kind: 'home' },
        { url: site.de('/kontakt'), kind: 'contact' },
        { url: site.de('/impressum'), kind: 'imprint' },
        { url: site.de('/ueber-uns'), kind: 'about' },
        { url: site.de('/team'), kind: 'team' },
      ],
      description_source: 'meta',
      not_found: ['company.industry'],
    });
    // Neither the blog nor the privacy page is a likely page; share buttons are not profiles.
    expect(site.hits).not.toContain('/de/blog/2024/neuer-greifer');
    expect(site.hits).not.toContain('/de/datenschutz');
  });

  test('an American shop without JSON-LD: microdata, og:site_name, page text and an extractive description', async () => {
    const res = await bare.post('/v1/lead', { url: site.at('/us/'), no_cache: true });
    expect(res.status).toBe(200);
    const { company, contacts, socials, description_source: source, not_found: missing, summary } = res.body;
    expect(company).toMatchObject({
      name: 'Harbor Bikes Inc.',
      logo: site.at('/us/img/harbor-logo.png'),
      industry: 'Bike Store',
      address: {
        street: '500 Embarcadero',
        postal_code: '94105',
        locality: 'San Francisco',
        region: 'CA',
        text: '500 Embarcadero, 94105 San Francisco, CA',
      },
    });
    expect(source).toBe('extractive');
    expect(company.description).toContain('Harbor Bikes builds sturdy city bicycles');
    // Pages in reading order: the contact page before the about page.
    expect(contacts).toEqual({ emails: ['hello@harborbikes.com'], phones: ['+14155552672', '+14155552671'] });
    expect(socials).toEqual({ github: 'https://github.com/harborbikes', youtube: 'https://youtube.com/@harborbikes' });
    expect(missing).toEqual(['company.founded', 'company.employees']);
    expect(summary).toBeUndefined();
    expect(res.body.pages).toEqual([
      { url: site.at('/us/'), kind: 'home' },
      { url: site.at('/us/contact'), kind: 'contact' },
      { url: site.at('/us/about-us'), kind: 'about' },
      { url: site.at('/us/team'), kind: 'team', error: 'Failed to fetch URL: HTTP 404' },
    ]);
  });

  test('with a model: a one-line summary and the industry no page stated', async () => {
    const res = await withModel.post('/v1/lead', { url: site.de('/') });
    expect(res.status).toBe(200);
    expect(res.body.summary).toBe('Nordlicht Robotik builds adaptive robot grippers for food and logistics.');
    expect(res.body.company.industry).toBe('Robotics');
    expect(res.body.not_found).toEqual([]);
    expect(res.body).toMatchObject({ provider: 'llm.openai', usage: { input_tokens: expect.any(Number) } });
    // The model read the pages' text, the imprint included.
    expect(lastUser(openai.conversations.at(-1)!)).toContain('Amtsgericht Charlottenburg');
  });

  test("the lead format on its own: one page's facts, through /v1/scrape", async () => {
    const res = await bare.post('/v1/scrape', { url: site.de('/kontakt'), formats: ['lead'] });
    expect(res.status).toBe(200);
    expect(res.body.lead).toMatchObject({
      organizations: [],
      emails: ['info@nordlicht-robotik.de', 'presse@nordlicht-robotik.de', 'support@helpdesk-partner.com', 'vertrieb@nordlicht-robotik.de'],
      phones: ['+49301234567', '+493098765432', '+442079460958'],
      country: 'DE',
      pages: [
        { kind: 'imprint', url: site.de('/impressum') },
        { kind: 'about', url: site.de('/ueber-uns') },
        { kind: 'team', url: site.de('/team') },
      ],
    });
  });

  test('the OpenAPI document describes the lead routes, their shapes and the batch event', async () => {
    const doc = (await bare.get('/openapi.json')).body;
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/v1/lead', '/v1/lead/batch', '/v1/lead/batch/{id}', '/v1/brand']));
    expect(doc.components.schemas.LeadBatchRequest.properties.urls.maxItems).toBe(25);
    expect(Object.keys(doc.components.schemas.Lead.properties)).toEqual(
      expect.arrayContaining(['company', 'contacts', 'socials', 'pages', 'summary', 'not_found']),
    );
    expect(Object.keys(doc.components.schemas.Brand.properties)).toEqual(
      expect.arrayContaining(['logo', 'colors', 'color_scheme', 'fonts', 'images', 'socials', 'tone', 'personality']),
    );
    expect(doc.webhooks['lead.batch.completed']).toBeDefined();
  });

  test('invalid input is a 400 naming the field; an unreachable site a 422', async () => {
    expect((await bare.post('/v1/lead', {})).body).toEqual({ error: 'Missing required field: url' });
    expect((await bare.post('/v1/lead', { url: site.de('/'), pages: 3 })).status).toBe(400);
    const down = await bare.post('/v1/lead', { url: 'http://127.0.0.1:9/' });
    expect(down.status).toBe(422);
    expect(down.body.error).toStartWith('Failed to fetch URL');
  });
});

const ADMIN_KEY = 'admin-key-for-lead-tests-0123456789';
const admin = { authorization: `Bearer ${ADMIN_KEY}` };

async function waitForBatch(server: TestServer, id: string, headers: Record<string, string>) {
  for (let i = 0; i < 600; i++) {
    const res = await server.get(`/v1/lead/batch/${id}`, headers);
    if (res.body.status === 'completed') return res.body;
    await Bun.sleep(50);
  }
  throw new Error(`lead batch ${id} did not complete`);
}

for (const database of testDatabases()) {
  describe(`lead batches (${database.name}, cloud mode)`, () => {
    let storage: Storage;
    let server: TestServer;
    let receiver: WebhookReceiver;
    const tenant = async (credits: number) => {
      const workspace = await server.post('/admin/workspaces', { name: `lead ${credits}`, plan: 'growth', credits }, admin);
      const key = await server.post(`/admin/workspaces/${workspace.body.id}/keys`, '', admin);
      return { id: workspace.body.id as string, auth: { authorization: `Bearer ${key.body.key}` } };
    };

    beforeAll(async () => {
      storage = await database.open();
      receiver = startWebhookReceiver();
      server = await startTrawlServer({
        storage,
        overrides: {
          mode: 'cloud',
          adminKey: ADMIN_KEY,
          fetch: { resolve: site.resolve },
          jobs: { pollIntervalMs: 50 },
          lead: { maxPages: 1 },
        },
      });
    });
    afterAll(async () => {
      await server.stop();
      await receiver.stop();
      await storage.close();
    });

    test("lifecycle: 202 with an id, then every URL's lead or error in request order; charged per lead read; the webhook told", async () => {
      const a = await tenant(100);
      const registered = await server.post('/v1/webhooks', { url: receiver.url('/registered'), events: ['lead.batch.completed'] }, a.auth);
      expect(registered.status).toBe(201);
      receiver.setSecret('/registered', registered.body.secret);
      const urls = [site.de('/'), 'http://127.0.0.1:9/', site.at('/us/')];
      const started = await server.post('/v1/lead/batch', { urls, webhook_url: receiver.url('/leads') }, a.auth);
      expect(started.status).toBe(202);
      const id = started.body.id as string;
      expect(started.body).toEqual({
        id,
        status: 'queued',
        total: 3,
        completed: 0,
        failed: 0,
        created_at: expect.any(String),
        completed_at: null,
      });
      expect(started.headers.get('location')).toBe(`/v1/lead/batch/${id}`);
      const done = await waitForBatch(server, id, a.auth);
      expect(done).toMatchObject({ id, status: 'completed', total: 3, completed: 2, failed: 1, completed_at: expect.any(String) });
      expect(done.data.map((d: { url: string; status: string }) => [d.url, d.status])).toEqual([
        [urls[0], 'completed'],
        [urls[1], 'failed'],
        [urls[2], 'completed'],
      ]);
      expect(done.data[0].lead.company.name).toBe('Nordlicht Robotik GmbH');
      expect(done.data[0].lead.pages).toHaveLength(2); // lead.maxPages = 1
      expect(done.data[1].error).toStartWith('Failed to fetch URL');
      expect(done.data[2].lead.contacts.phones).toEqual(['+14155552672']); // the contact page only: lead.maxPages = 1

      const [delivery] = await receiver.waitFor(1, '/leads');
      expect(delivery!.payload).toMatchObject({
        type: 'lead.batch.completed',
        data: { id, status: 'completed', total: 3, completed: 2, failed: 1 },
      });
      const [signed] = await receiver.waitFor(1, '/registered');
      expect(signed!.verified).toBe(true);
      expect(signed!.payload.data.id).toBe(id);
      // 2 credits per URL read; the URL that could not be read is given back.
      expect((await server.get(`/admin/workspaces/${a.id}`, admin)).body.credits).toBe(96);
    });

    test('limits: 1 to 25 URLs, valid URLs, a receiver the guard allows', async () => {
      const a = await tenant(100);
      const many = Array.from({ length: 26 }, (_, i) => site.de(`/?n=${i}`));
      expect((await server.post('/v1/lead/batch', { urls: many }, a.auth)).body).toEqual({
        error: 'Invalid field urls: at most 25 URLs per batch',
      });
      expect((await server.post('/v1/lead/batch', { urls: [] }, a.auth)).status).toBe(400);
      expect((await server.post('/v1/lead/batch', {}, a.auth)).body).toEqual({ error: 'Missing required field: urls' });
      expect((await server.post('/v1/lead/batch', { urls: ['ftp://example.com/'] }, a.auth)).status).toBe(400);
      expect((await server.get('/v1/lead/batch/not-a-batch', a.auth)).status).toBe(404);
    });

    test('credits: a lead costs 2; a batch URL the workspace cannot pay for fails saying so', async () => {
      const single = await tenant(10);
      const lead = await server.post('/v1/lead', { url: site.at('/us/') }, single.auth);
      expect(lead.status).toBe(200);
      expect(lead.headers.get('x-credits-used')).toBe('2');
      const poor = await tenant(2);
      const started = await server.post('/v1/lead/batch', { urls: [site.at('/us/'), site.de('/')] }, poor.auth);
      expect(started.status).toBe(202);
      const done = await waitForBatch(server, started.body.id, poor.auth);
      expect(done).toMatchObject({ completed: 1, failed: 1 });
      expect(done.data.map((d: { error?: string }) => d.error).filter(Boolean)).toEqual([
        'Insufficient credits: the workspace ran out of credits',
      ]);
      expect((await server.get(`/admin/workspaces/${poor.id}`, admin)).body.credits).toBe(0);
    });

    test('a batch is visible to its own workspace only', async () => {
      const [a, b] = await Promise.all([tenant(100), tenant(100)]);
      const started = await server.post('/v1/lead/batch', { urls: [site.at('/us/')] }, a.auth);
      expect(started.status).toBe(202);
      const foreign = await server.get(`/v1/lead/batch/${started.body.id}`, b.auth);
      expect(foreign.status).toBe(404);
      expect(foreign.body.error).toBe(`Lead batch not found: ${started.body.id}`);
      expect((await waitForBatch(server, started.body.id, a.auth)).completed).toBe(1);
    });
  });
}
