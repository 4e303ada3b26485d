/** The watch feed's wire: where the Atom feed is served, how many entries it holds, and its query string. */
import { z } from 'zod';

export const FEED_PATH = '/v1/watch/feed.atom';
/** The newest notified changes the feed lists. */
export const FEED_ENTRIES = 50;

export const feedQuery = z.object({ token: z.string().max(256).optional() });
