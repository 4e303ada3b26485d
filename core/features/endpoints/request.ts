/** The request of POST /v1/endpoints. */
import { z } from 'zod';
import { httpUrl } from '../../model/request.ts';

/** The interface's default and hard maximum of bundles downloaded per call. */
export const MAX_BUNDLES = 20;

export const endpointsRequestSchema = z.strictObject({
  url: httpUrl.describe('Page to analyse; its inline scripts and linked bundles are fetched and scanned.'),
  include_third_party: z
    .boolean()
    .default(false)
    .describe("Also return endpoints on other registrable domains than the page's (default: first-party only)."),
  max_bundles: z
    .number()
    .int()
    .min(0)
    .max(MAX_BUNDLES)
    .default(MAX_BUNDLES)
    .describe(`Script bundles downloaded at most; default and hard maximum ${MAX_BUNDLES}.`),
});

export type EndpointsRequest = z.output<typeof endpointsRequestSchema>;
