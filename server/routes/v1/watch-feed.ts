/**
 * The workspace's change feed as Atom: `GET /v1/watch/feed.atom?token=…`, opened only by the
 * workspace's feed token (feed readers send no headers, so the API key never goes into a URL), and
 * `POST/GET/DELETE /v1/watch/feed-token` (with the API key) to create or rotate, inspect and revoke
 * that token. The XML is written by fast-xml-parser's builder, which escapes text and attributes;
 * characters XML 1.0 cannot carry are dropped first.
 */
import { XMLBuilder } from 'fast-xml-parser';
import { TrawlError } from '../../../core/errors.ts';
import type { FeedEntry } from '../../../core/features/watch/feed.ts';
import { WatchTokens } from '../../../core/features/watch/index.ts';
import { defineRoutes, route } from '../../route.ts';
import { publicBase } from '../v2/shared.ts';
import { FEED_ENTRIES, FEED_PATH, feedQuery } from '../../wire/v1/watch-feed.ts';
import { watchFeedOpenApi } from '../../wire/v1/watch-feed.docs.ts';

/** The token is optional here so that a missing one is a 401 like a wrong one, not a 400. */

const builder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: '@_', format: true, suppressEmptyNode: true });
// Control characters and non-characters are not allowed in XML 1.0, whatever the page's title held.
const xmlText = (text: string) =>
  text.replace(
    /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g,
    '',
  );

/** The dashboard opens the watch and this snapshot's diff from the query (the notifications' links read the same). */
export const dashboardLink = (base: string, watchId: string, snapshotId: string) =>
  `${base}/dashboard?watch=${encodeURIComponent(watchId)}&to=${encodeURIComponent(snapshotId)}`;

export function atomFeed(entries: FeedEntry[], base: string, workspace: string, now: string): string {
  const feed = {
    '?xml': { '@_version': '1.0', '@_encoding': 'utf-8' },
    feed: {
      '@_xmlns': 'http://www.w3.org/2005/Atom',
      id: `urn:trawl:watch-feed:${xmlText(workspace)}`,
      title: 'Trawl: watched pages that changed',
      updated: entries[0]?.checkedAt ?? now,
      author: { name: 'Trawl' },
      link: { '@_rel': 'alternate', '@_type': 'text/html', '@_href': `${base}/dashboard` },
      entry: entries.map((e) => ({
        id: `urn:uuid:${e.snapshotId}`,
        title: { '@_type': 'text', '#text': xmlText(`${e.watchName} changed`) },
        updated: e.checkedAt,
        link: [
          { '@_rel': 'alternate', '@_type': 'text/html', '@_href': dashboardLink(base, e.watchId, e.snapshotId) },
          { '@_rel': 'related', '@_href': e.url },
        ],
        summary: { '@_type': 'text', '#text': xmlText([e.reason, e.excerpt ?? e.summary].filter(Boolean).join(' — ')) },
        content: {
          '@_type': 'text',
          '#text': xmlText(
            [`${e.title} (${e.url})`, e.reason && `Why: ${e.reason}`, e.excerpt && `What changed: ${e.excerpt}`, e.summary]
              .filter(Boolean)
              .join('\n'),
          ),
        },
      })),
    },
  };
  return builder.build(feed);
}

const badToken = () => new TrawlError('unauthorized', 'Invalid or revoked feed token');

export const watchFeedModule = defineRoutes({
  name: 'watch-feed',
  needs: { feeds: WatchTokens.Feed },
  routes: ({ feeds }, env) => [
    {
      method: 'POST',
      path: '/v1/watch/feed-token',
      async handle({ request, workspace }) {
        const { token, createdAt } = await feeds.create(workspace);
        const feedUrl = `${publicBase(env.config, request)}${FEED_PATH}?token=${token}`;
        return Response.json({ token, feed_url: feedUrl, created_at: createdAt }, { status: 201 });
      },
    },
    {
      method: 'GET',
      path: '/v1/watch/feed-token',
      async handle({ workspace }) {
        const status = await feeds.status(workspace);
        return { active: status !== null, created_at: status?.createdAt ?? null };
      },
    },
    {
      method: 'DELETE',
      path: '/v1/watch/feed-token',
      async handle({ workspace }) {
        if (!(await feeds.revoke(workspace))) throw new TrawlError('not_found', 'No feed token to revoke');
        return { success: true };
      },
    },
    route({
      method: 'GET',
      path: FEED_PATH,
      public: true,
      query: feedQuery,
      async handle({ request, query }) {
        const workspace = query.token ? await feeds.workspaceOf(query.token) : null;
        if (!workspace) throw badToken();
        const xml = atomFeed(
          await feeds.entries(workspace, FEED_ENTRIES),
          publicBase(env.config, request),
          workspace,
          new Date().toISOString(),
        );
        return new Response(xml, {
          headers: { 'content-type': 'application/atom+xml; charset=utf-8', 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' },
        });
      },
    }),
  ],
  openapi: () => watchFeedOpenApi,
});
