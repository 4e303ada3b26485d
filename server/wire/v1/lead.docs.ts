/** The OpenAPI of the lead routes: the request from the zod schemas that validate it, the Lead record and the lead batch event. */
import { LEAD_BATCH_MAX_URLS } from '../../../core/features/lead/request.ts';
import { dateTime, errorBody, jsonBody, pathId, schemaRef, toJson } from '../../openapi-shapes.ts';
import { v1LeadBatchSchema, v1LeadSchema } from './request.ts';
import { eventDoc } from './webhooks.docs.ts';

const nullableString = { type: ['string', 'null'] };
const counts = {
  id: { type: 'string', format: 'uuid' },
  status: {
    type: 'string',
    enum: ['queued', 'processing', 'completed'],
    description: '`completed` once every URL ' + 'has its lead or its error.',
  },
  total: { type: 'integer' },
  completed: { type: 'integer', description: 'URLs with a lead.' },
  failed: { type: 'integer', description: 'URLs with an error.' },
  completed_at: dateTime('When the last URL finished.', true),
};

const READING =
  'The page at `url` is scraped (through the scrape pipeline: SSRF guard, cache, document types, time limit) and ' +
  'read as served, navigation and footer included; then up to `lead.maxPages` (4) pages it links to on the same ' +
  'site — contact, imprint/Impressum, about and team pages, recognised by path and link text in common languages — ' +
  'the same way. Structured data wins: JSON-LD Organization (and LocalBusiness, Corporation …) nodes, then ' +
  'microdata items, then the page text. E-mails come from `mailto:` links, Cloudflare-protected links, the text, ' +
  'and text written as `name [at] domain [dot] com` (decoded); phones from `tel:` links, structured data and the ' +
  "text, normalised to E.164 (libphonenumber-js) with the default country of the page's language region, else its " +
  'country-code domain, else its language. `description` is the structured description, else the meta description, ' +
  "else the page's two most central sentences (TextRank); `description_source` says which. With a language model " +
  "configured, `summary` (one line) and, when no page states one, `industry` are the model's; without one they " +
  'are absent. `not_found` lists what no page had; `pages` lists the pages read, with an `error` for those that ' +
  'could not be.';

const leadSchema = {
  type: 'object',
  required: ['url', 'company', 'contacts', 'socials', 'pages', 'description_source', 'not_found'],
  properties: {
    url: { type: 'string' },
    company: {
      type: 'object',
      required: ['name', 'description', 'logo', 'address'],
      properties: {
        name: { ...nullableString, description: 'Structured name, else og:site_name, else the title without page words.' },
        description: nullableString,
        logo: { ...nullableString, description: 'Structured logo, else the header image marked as the logo, ' + 'else the touch icon.' },
        industry: {
          type: 'string',
          description: 'Stated (`industry`, or a specific type such as Restaurant), or ' + "the model's; absent when unknown.",
        },
        founded: { type: 'string', description: '`foundingDate` as stated.' },
        employees: { type: ['integer', 'string'], description: 'A count, or a range ("51-200").' },
        address: { oneOf: [schemaRef('PostalAddress'), { type: 'null' }] },
      },
    },
    contacts: {
      type: 'object',
      properties: {
        emails: { type: 'array', items: { type: 'string' }, description: "Addresses at the site's own " + 'domain first.' },
        phones: { type: 'array', items: { type: 'string' }, description: 'E.164.' },
      },
    },
    socials: {
      type: 'object',
      additionalProperties: { type: 'string' },
      description:
        'Profile URL by network: ' + 'linkedin, x, facebook, instagram, youtube, github, tiktok, pinterest, xing, threads, bluesky.',
    },
    pages: {
      type: 'array',
      items: {
        type: 'object',
        required: ['url', 'kind'],
        properties: {
          url: { type: 'string' },
          kind: { type: 'string', enum: ['home', 'about', 'contact', 'imprint', 'team'] },
          error: { type: 'string' },
        },
      },
    },
    summary: { type: 'string', description: 'One line by the configured language model; absent without one.' },
    description_source: { type: ['string', 'null'], enum: ['structured', 'meta', 'extractive', null] },
    not_found: {
      type: 'array',
      items: { type: 'string' },
      description: 'Fields no page had, e.g. ' + '`company.founded`, `contacts.phones`.',
    },
    model: { type: 'string' },
    provider: { type: 'string' },
    usage: schemaRef('LlmUsage'),
    warnings: { type: 'array', items: { type: 'string' } },
  },
};

const unknown = {
  401: errorBody('Invalid or missing API key'),
  404: errorBody('`Lead batch not found`: unknown ' + "id, or the id of another workspace's batch"),
};

export const leadOpenApi = {
  paths: {
    '/v1/lead': {
      post: {
        summary: 'Turn a company URL into an enriched lead',
        description: READING,
        requestBody: { required: true, content: { 'application/json': { schema: schemaRef('LeadRequest') } } },
        responses: {
          200: jsonBody(schemaRef('Lead'), 'The lead'),
          400: errorBody('Invalid request, e.g. `Missing required field: url`'),
          401: errorBody('Invalid or missing API key'),
          422: errorBody(
            'The page at `url` could not be fetched or read (`Failed to fetch URL: …`); pages found ' +
              'from it that fail are listed in `pages` instead',
          ),
        },
      },
    },
    '/v1/lead/batch': {
      post: {
        summary: 'Enrich up to 25 company URLs in one asynchronous job',
        description:
          `\`urls\`: 1 to ${LEAD_BATCH_MAX_URLS}, each read as POST /v1/lead reads one, ` +
          '`lead.batchConcurrency` at a time. The answer is 202 with the batch id (and `Location`). A URL that ' +
          'cannot be read gets its `error`; the batch still ends `completed`, and `lead.batch.completed` then goes ' +
          'to registered webhooks and to `webhook_url`. The batch and its leads are kept and readable only by the ' +
          'workspace that started it.',
        requestBody: { required: true, content: { 'application/json': { schema: schemaRef('LeadBatchRequest') } } },
        responses: {
          202: jsonBody(
            { type: 'object', required: ['id', 'status'], properties: { ...counts, created_at: dateTime('When the batch was accepted.') } },
            'Accepted',
          ),
          400: errorBody(
            'Invalid request, e.g. `Missing required field: urls`, `Invalid field urls: at most ' +
              `${LEAD_BATCH_MAX_URLS} URLs per batch\``,
          ),
          401: errorBody('Invalid or missing API key'),
        },
      },
    },
    '/v1/lead/batch/{id}': {
      get: {
        summary: 'Poll batch enrichment status',
        parameters: [pathId],
        responses: { 200: jsonBody(schemaRef('LeadBatch'), 'The batch with every URL in request order'), ...unknown },
      },
    },
  },
  webhooks: { 'lead.batch.completed': eventDoc('lead.batch.completed', 'LeadBatchEvent', 'a lead batch finished') },
  schemas: {
    LeadRequest: toJson(v1LeadSchema),
    LeadBatchRequest: toJson(v1LeadBatchSchema),
    Lead: leadSchema,
    PostalAddress: {
      type: 'object',
      required: ['text'],
      properties: {
        street: nullableString,
        postal_code: nullableString,
        locality: nullableString,
        region: nullableString,
        country: nullableString,
        text: { type: 'string', description: 'The address on one line.' },
      },
    },
    LeadBatch: {
      type: 'object',
      properties: {
        ...counts,
        created_at: dateTime('When the batch was accepted.'),
        data: {
          type: 'array',
          items: {
            type: 'object',
            required: ['url', 'status'],
            properties: {
              url: { type: 'string' },
              status: { type: 'string', enum: ['queued', 'completed', 'failed'] },
              lead: schemaRef('Lead'),
              error: { type: 'string' },
            },
          },
        },
      },
    },
    LeadBatchEvent: { type: 'object', properties: counts },
  },
};
