/** The internal brand request (camelCase; wire formats parse into it): one page, usually a site's home page. */
import { z } from 'zod';
import { coreRequestFields, httpUrl } from '../../model/request.ts';

export const brandRequestFields = {
  url: httpUrl.describe("The page to profile, usually the site's home page."),
  noCache: coreRequestFields.noCache.describe('Fetch the page afresh instead of using a cached scrape.'),
  timeoutMs: coreRequestFields.timeoutMs.describe(
    "Time limit of the page's scrape in milliseconds (stylesheets and manifest: brand.assetTimeoutMs each).",
  ),
};

export const brandRequestSchema = z.strictObject(brandRequestFields);
export type BrandRequest = z.output<typeof brandRequestSchema>;
