/**
 * The internal lead requests (camelCase; wire formats parse into them): one company URL, or a
 * batch of 1 to 25 (the interface's limit) with an optional receiver for `lead.batch.completed`.
 */
import { z } from 'zod';
import { coreRequestFields, httpUrl } from '../../model/request.ts';
import { receiverUrlSchema } from '../../net/receiver.ts';

export const LEAD_BATCH_MAX_URLS = 25;

export const leadRequestFields = {
  url: httpUrl.describe("The company's site (its home page, or any page of it)."),
  noCache: coreRequestFields.noCache.describe('Fetch the pages afresh instead of using cached scrapes.'),
  timeoutMs: coreRequestFields.timeoutMs.describe("Time limit of each page's scrape in milliseconds."),
};

export const leadBatchRequestFields = {
  urls: z
    .array(httpUrl)
    .min(1, 'must list at least one URL')
    .max(LEAD_BATCH_MAX_URLS, `at most ${LEAD_BATCH_MAX_URLS} URLs per batch`)
    .describe(`Company sites, 1 to ${LEAD_BATCH_MAX_URLS}; each becomes one lead (or one error).`),
  webhookUrl: receiverUrlSchema
    .optional()
    .describe(
      'Receives lead.batch.completed for this batch: written out in full (http:// or https://), checked by the SSRF guard when the batch starts.',
    ),
  noCache: leadRequestFields.noCache,
};

export const leadRequestSchema = z.strictObject(leadRequestFields);
export const leadBatchRequestSchema = z.strictObject(leadBatchRequestFields);

export type LeadRequest = z.output<typeof leadRequestSchema>;
export type LeadBatchRequest = z.output<typeof leadBatchRequestSchema>;
