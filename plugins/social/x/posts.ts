/** The API v2's post and user objects as Trawl's SocialPost and SocialUser. */
import type { SocialPost, SocialUser } from '../../../core/kit.ts';

interface ApiTweet {
  id: string;
  text: string;
  author_id?: string;
  created_at?: string;
  lang?: string;
  note_tweet?: { text?: string };
  public_metrics?: { like_count?: number; retweet_count?: number; reply_count?: number };
  referenced_tweets?: Array<{ type: string; id: string }>;
}

interface ApiUser {
  id: string;
  username: string;
  name?: string;
  description?: string;
  url?: string;
  entities?: { url?: { urls?: Array<{ expanded_url?: string }> } };
  public_metrics?: { followers_count?: number };
}

export interface TimelinePage {
  data?: ApiTweet[];
  includes?: { users?: ApiUser[]; tweets?: ApiTweet[] };
  meta?: { newest_id?: string; next_token?: string; result_count?: number };
}

/** Every post of the pages, oldest first, with its author's handle from `includes`. */
export function postsOf(pages: TimelinePage[]): SocialPost[] {
  const users = new Map<string, string>();
  const referenced = new Map<string, ApiTweet>();
  for (const page of pages) {
    for (const u of page.includes?.users ?? []) users.set(u.id, u.username);
    for (const t of page.includes?.tweets ?? []) referenced.set(t.id, t);
  }
  const seen = new Set<string>();
  const posts: SocialPost[] = [];
  for (const page of pages) {
    for (const t of page.data ?? []) {
      if (seen.has(t.id)) continue;
      seen.add(t.id);
      const types = new Set((t.referenced_tweets ?? []).map((r) => r.type));
      const screenName = users.get(t.author_id ?? '') ?? '';
      // A repost's own text is cut ("RT @x: …"): the original's full text stands for it.
      const original = types.has('retweeted') ? referenced.get(t.referenced_tweets!.find((r) => r.type === 'retweeted')!.id) : undefined;
      const text = original
        ? `RT @${users.get(original.author_id ?? '') ?? ''}: ${original.note_tweet?.text ?? original.text}`
        : (t.note_tweet?.text ?? t.text);
      posts.push({
        id: t.id,
        screenName,
        text,
        url: `https://x.com/${screenName || 'i'}/status/${t.id}`,
        createdAt: t.created_at ?? '',
        favoriteCount: t.public_metrics?.like_count ?? 0,
        retweetCount: t.public_metrics?.retweet_count ?? 0,
        replyCount: t.public_metrics?.reply_count ?? 0,
        lang: t.lang ?? '',
        isRetweet: types.has('retweeted'),
        isReply: types.has('replied_to'),
        isQuote: types.has('quoted'),
      });
    }
  }
  return posts.sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
}

export function userOf(u: ApiUser): SocialUser {
  return {
    id: u.id,
    screenName: u.username,
    name: u.name ?? '',
    followers: u.public_metrics?.followers_count ?? 0,
    description: u.description ?? '',
    url: u.entities?.url?.urls?.[0]?.expanded_url ?? u.url ?? '',
  };
}
