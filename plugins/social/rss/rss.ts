/**
 * `social.rss`: a generic RSS/Atom social source, for self-hosted bridges (a Nitter or RSSHub
 * instance) that publish an account's posts, a search or a list as a feed. The operator gives one
 * URL template per monitor kind with `{target}` in it; a kind without a template is refused.
 * Posts are feed items whose link ends in `/status/<numeric id>`: the id orders them and is the
 * cursor, the path's first segment is the author, the title the text (at most 300 characters),
 * the link (without fragment) the post's URL.
 * Feeds carry no metrics and no language, so `min_faves` above 0 and `lang` match nothing;
 * reposts and replies are recognised by the bridge's title prefixes (`RT by`, `RT @`, `R to @`).
 * No audience export. Enabled by setting `profileUrl`.
 */
import { z } from 'zod';
import { callProvider, definePlugin, parseSitemapDocument, providerError, sitemapText, Tokens, TrawlError } from '../../../core/kit.ts';
import type { SocialPost, SocialTargetKind } from '../../../core/kit.ts';

const MAX_FEED_BYTES = 5 * 1024 * 1024;
const template = (what: string) =>
  z
    .url({ protocol: /^https?$/ })
    .refine((u) => u.includes('{target}'), 'must contain {target}')
    .optional()
    .describe(`Feed URL of ${what}, with {target} where it goes.`);

/** A feed item as a post, or null when its link names no numeric post id. */
export function postOf(link: { url: string; title?: string; lastmod?: string }): SocialPost | null {
  const match = new URL(link.url).pathname.match(/^\/([^/]+)\/status(?:es)?\/(\d{1,20})/);
  if (!match) return null;
  const [, author, id] = match as unknown as [string, string, string];
  const title = link.title ?? '';
  return {
    id,
    screenName: author,
    text: title,
    url: link.url.replace(/#.*$/, ''),
    createdAt: link.lastmod ?? '',
    favoriteCount: 0,
    retweetCount: 0,
    replyCount: 0,
    lang: '',
    isRetweet: /^RT (by|@)/.test(title),
    isReply: /^R to @/.test(title),
    isQuote: false,
  };
}

export const rssSocial = definePlugin({
  kind: 'social',
  name: 'rss',
  description:
    'Posts from RSS/Atom feeds of a self-hosted bridge (Nitter, RSSHub); no metrics, language or audience. Enabled by setting `profileUrl`.',
  enabledBy: ['profileUrl'],
  options: z.strictObject({
    profileUrl: template('an account (target: the handle)'),
    searchUrl: template('a search (target: the query)'),
    listUrl: template('a list (target: the list id)'),
    repliesUrl: template("a post's replies (target: the post id)"),
    timeoutMs: z.number().int().min(100).max(120_000).default(15_000).describe('Time limit of one feed request.'),
  }),
  setup(options, ctx) {
    const http = ctx.resolve(Tokens.Http);
    const templates: Record<SocialTargetKind, string | undefined> = {
      profile: options.profileUrl,
      search: options.searchUrl,
      list: options.listUrl,
      replies: options.repliesUrl,
    };

    return {
      // Feeds are addressed by handle: the handle is the id.
      async resolveHandle(handle) {
        return handle;
      },

      async posts(query) {
        const url = templates[query.kind]?.replace('{target}', encodeURIComponent(query.target));
        if (!url)
          throw new TrawlError(
            'capability_missing',
            `The RSS social source has no feed for ${query.kind} monitors: set plugins.social.rss.${query.kind}Url`,
          );
        const response = await callProvider(http, url, {
          headers: { accept: 'application/rss+xml, application/atom+xml, application/xml;q=0.9, */*;q=0.5' },
          timeoutMs: options.timeoutMs,
          signal: query.signal,
        });
        if (response.status === 429)
          throw new TrawlError('rate_limited', `the feed answered HTTP 429`, {
            retryAfterSeconds: Number(response.headers['retry-after']) || 60,
          });
        if (response.status >= 400) throw providerError(`the feed answered HTTP ${response.status}`);
        const doc = parseSitemapDocument(await sitemapText(response.body, MAX_FEED_BYTES), url);
        if (doc.kind !== 'rss' && doc.kind !== 'atom') throw providerError('the feed is not RSS or Atom');
        const seen = new Set<string>();
        const all = doc.links
          .flatMap((l) => postOf(l) ?? [])
          .filter((p) => !seen.has(p.id) && seen.add(p.id) && !(query.kind === 'replies' && p.id === query.target));
        all.sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
        const since = query.since;
        const posts = since === null ? all : all.filter((p) => BigInt(p.id) > BigInt(since));
        const newest = all.at(-1)?.id ?? null;
        return { posts, cursor: newest && (since === null || BigInt(newest) > BigInt(since)) ? newest : since };
      },

      async audience() {
        throw new TrawlError('capability_missing', 'The RSS social source cannot export audiences; configure plugins.social.x');
      },
    };
  },
});
