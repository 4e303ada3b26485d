/**
 * Company leads over HTTP: `POST /v1/lead` (one site → one lead, answered when done),
 * `POST /v1/lead/batch` (1 to 25 sites as one durable job: 202 with its id) and
 * `GET /v1/lead/batch/{id}` (status, counts and each URL's lead or error), scoped to the caller's
 * workspace. The work is core/features/lead's; the /v1 shapes are server/wire/v1/lead.ts.
 */
import { LeadTokens } from '../../../core/features/lead/index.ts';
import type { LeadBatchRequest, LeadRequest } from '../../../core/features/lead/request.ts';
import { defineRoutes, route } from '../../route.ts';
import { v1Field } from '../../wire/v1/names.ts';
import { presentLead, presentLeadBatch } from '../../wire/v1/lead.ts';
import { v1LeadBatchSchema, v1LeadSchema } from '../../wire/v1/request.ts';
import { leadOpenApi } from '../../wire/v1/lead.docs.ts';

export const leadModule = defineRoutes({
  name: 'lead',
  needs: { leads: LeadTokens.Service, batches: LeadTokens.Batches },
  routes: ({ leads, batches }) => [
    route<LeadRequest>({
      method: 'POST',
      path: '/v1/lead',
      input: v1LeadSchema,
      meter: { endpoint: 'lead', units: () => ({ lead: 1 }), url: (body) => body.url },
      async handle({ request, workspace, body }) {
        return presentLead(await leads.lead(body, workspace, request.signal, v1Field));
      },
    }),
    route<LeadBatchRequest>({
      method: 'POST',
      path: '/v1/lead/batch',
      input: v1LeadBatchSchema,
      // Each URL is charged as it is read (the lead feature declares its unit); starting needs credit for one.
      meter: { endpoint: 'lead_batch', requires: () => ({ leadBatchItem: 1 }) },
      async handle({ workspace, body, usage }) {
        const batch = await batches.start(body, workspace, v1Field);
        usage.runId = batch.id;
        return Response.json(presentLeadBatch(batch), { status: 202, headers: { location: `/v1/lead/batch/${batch.id}` } });
      },
    }),
    {
      method: 'GET',
      path: '/v1/lead/batch/:id',
      async handle({ params, workspace }) {
        const { batch, items } = await batches.find(workspace, params.id!);
        return presentLeadBatch(batch, items);
      },
    },
  ],
  openapi: () => leadOpenApi,
});
