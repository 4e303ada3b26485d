/**
 * The /v1 diff wire: the POST /v1/diff body, and the presenter of a comparison that /v1/diff and a
 * watch's snapshot diff both answer with.
 */
import { z } from 'zod';
import type { Comparison } from '../../../core/features/diff/compare.ts';
import { MAX_CONTENT_CHARS } from '../../../core/features/diff/page.ts';
import { httpUrl } from '../../../core/model/request.ts';

export const diffRequestSchema = z.strictObject({
  url: httpUrl.describe('The page to compare.'),
  previous: z
    .string()
    .max(MAX_CONTENT_CHARS, `must be at most ${MAX_CONTENT_CHARS} characters`)
    .optional()
    .describe(
      "An earlier version (markdown or plain text). Without it the workspace's last stored scrape of " + '`url` is the previous version.',
    ),
});

/** `diff: {unified, added, removed}` and the counts, as /v1/diff answers; the snapshot diff adds parts, lines and the excerpt. */
export function presentComparison(c: Comparison | null, withView = false) {
  const view = withView ? { parts: c?.parts ?? [], lines: c?.lines ?? [], excerpt: c?.changed ? c.excerpt : '' } : {};
  return {
    diff: { unified: c?.unified ?? '', added: c?.added ?? [], removed: c?.removed ?? [], ...view },
    summary: c ? c.summary : 'Nothing to compare with yet.',
    word_count_delta: c?.wordCountDelta ?? 0,
    links_added: c?.linksAdded ?? 0,
    links_removed: c?.linksRemoved ?? 0,
  };
}
