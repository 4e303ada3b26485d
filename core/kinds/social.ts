/**
 * The `social` plugin kind's handler shape: resolve a handle, fetch new posts of a profile, a search,
 * a list or a reply thread since a cursor, and pages of an account's audience. Sources live in
 * plugins/social/; the social feature polls them on the shared schedule.
 */
import { TrawlError } from '../errors.ts';

/** The source's usage cap or credits are spent (HTTP 402 from the network's API): the operator must act. */
export const quotaSpent = (message: string) => new TrawlError('unavailable', message, { details: { quotaSpent: true } });
export const isQuotaSpent = (err: TrawlError) => (err.details as { quotaSpent?: boolean } | undefined)?.quotaSpent === true;

/** What a social monitor polls: an account's posts, a search, a list timeline or a post's reply thread. */
export type SocialTargetKind = 'profile' | 'search' | 'list' | 'replies';

/** One post as every social source reports it (the network's numeric ids are strings). */
export interface SocialPost {
  id: string;
  screenName: string;
  text: string;
  url: string;
  createdAt: string;
  favoriteCount: number;
  retweetCount: number;
  replyCount: number;
  lang: string;
  isRetweet: boolean;
  isReply: boolean;
  isQuote: boolean;
}

/** A monitor's filters a source may apply on its side too (the feature re-checks every one). */
export interface SocialFilters {
  includeRetweets: boolean;
  includeReplies: boolean;
  includeQuotes: boolean;
  minFaves: number;
  keyword: string | null;
  lang: string | null;
}

export interface SocialPostsQuery {
  kind: SocialTargetKind;
  /** Per kind: the account's numeric id (profile, from `resolveHandle`), query, list id, post id. */
  target: string;
  /** The newest post id seen so far; null on a first check (the source returns its newest page only). */
  since: string | null;
  filters: SocialFilters;
  signal: AbortSignal;
}

export interface SocialPosts {
  /** Newer than `since`, oldest first. */
  posts: SocialPost[];
  /** The id the next check starts from (unchanged when nothing is new). */
  cursor: string | null;
}

export interface SocialUser {
  id: string;
  screenName: string;
  name: string;
  followers: number;
  description: string;
  url: string;
}

export interface SocialAudiencePage {
  users: SocialUser[];
  /** The source's own token for the next page; null at the end. */
  next: string | null;
}

/**
 * A social network source. Failures are TrawlErrors; a rate limit carries `retryAfterSeconds`
 * (the time until the source's reset), so a scheduled check waits instead of failing; a spent
 * usage cap or credit balance is `quotaSpent` (it does not come back on its own), so monitors
 * pause instead of failing on every check.
 */
export interface SocialHandler {
  /** The id the source polls an account by (the API's numeric id; a feed's handle); `not_found` when the account does not exist. */
  resolveHandle(handle: string, signal: AbortSignal): Promise<string>;
  posts(query: SocialPostsQuery): Promise<SocialPosts>;
  audience(userId: string, direction: 'followers' | 'following', page: string | null, signal: AbortSignal): Promise<SocialAudiencePage>;
}
