/**
 * Forum / Q&A thread recognition. On a thread the posts *are* the content, so comment and reply
 * blocks must not be dropped as boilerplate, and post authors and dates are kept.
 */
import { ITEM_ARTICLE, LD_ARTICLE } from './article.ts';
import { bodyBefore } from './posts.ts';
import type { StatsMap } from './scoring.ts';
import { attr } from './walk.ts';

const FORUM_URL =
  /\/(?:t|threads?|topics?|forums?|community|discussions?|questions|viewtopic|showthread|boards?|posts?)\b|[?&](?:t|topic|threadid)=|\bforums?\.|\bcommunity\.|\bdiscuss\.|\bdiscourse\./i;
const GENERATOR = /discourse|xenforo|phpbb|vbulletin|invision|mybb|smf|flarum|nodebb|vanilla/i;
/**
 * Class words of post containers in common forum software (Discourse, XenForo, phpBB, vBulletin, Stack Exchange,
 * Invision Community 5 and 4: ipsEntry--post, cPost; Lemmy: comment-node …).
 * Not WordPress's 'comment-body' nor FAQ Question/Answer microdata: blog articles carry those too.
 */
const POST_CLASS =
  /(?:^|\s)(?:crawler-post|topic-body|message--post|postbody|post-body|postcontainer|answercell|postcell|js-post|forum-post|bbwrapper|cooked|post-message|messagecontent|post-content|ipsentry--post|cpost|comment-node)(?:\s|$)/i;
const POST_TYPE = /DiscussionForumPosting|QAPage/;
/** schema.org Comments: a thread's replies, or the comments under an article (the page's own type tells which). */
const COMMENT_TYPE = /\/Comment\b/;
/** A thread's own JSON-LD: the page says it is a forum posting or a Q&A page. */
const LD_THREAD = /"@type"\s*:\s*\[?\s*"(?:DiscussionForumPosting|QAPage)"/;

/** A forum post container, a schema.org Comment, or an article in microdata. */
export type PostKind = 'post' | 'comment' | 'article';

/**
 * What this element says it is, as far as threads go (called once per element by the scan, with its
 * class and itemtype: undefined when it has no attributes).
 */
export function postKind(
  el: Element,
  tag: string,
  cls: string | null | undefined,
  itemtype = cls === undefined ? null : attr(el, 'itemtype'),
): PostKind | null {
  if (tag === 'SHREDDIT-COMMENT') return 'post';
  if (cls && POST_CLASS.test(cls)) return 'post';
  if (!itemtype) return null;
  return POST_TYPE.test(itemtype) ? 'post' : COMMENT_TYPE.test(itemtype) ? 'comment' : ITEM_ARTICLE.test(itemtype) ? 'article' : null;
}

/** Decides from the scan's post count, the head's generator meta tag and JSON-LD, and the URL. */
export function isForumPage(doc: Document, postHits: number, url?: string): boolean {
  if (postHits >= 2) return true;
  const head = doc.head;
  if (head) {
    for (let c = head.firstElementChild; c; c = c.nextElementSibling) {
      if (c.tagName === 'META' && attr(c, 'name')?.toLowerCase() === 'generator' && GENERATOR.test(attr(c, 'content') ?? '')) return true;
      if (c.tagName === 'SCRIPT' && attr(c, 'type') === 'application/ld+json' && LD_THREAD.test(c.textContent ?? '')) return true;
    }
  }
  return postHits >= 1 && isForumUrl(url);
}

/** Does the URL say forum, thread or topic? */
export function isForumUrl(url: string | undefined): boolean {
  return !!url && FORUM_URL.test(url);
}

/**
 * How many of the page's schema.org Comments count as a thread's posts: all of them, unless the
 * page declares an article (`articles`: the body's article scripts and items) whose body, before
 * them, is long beside them: then they are its readers' comments. (Some forums call their threads
 * articles: a question is about as long as its replies.)
 */
export function threadComments(doc: Document, comments: readonly Element[], articles: number, root: Element, stats: StatsMap): number {
  if (!comments.length) return 0;
  let article = articles > 0;
  for (let c = doc.head?.firstElementChild ?? null; c && !article; c = c.nextElementSibling) {
    if (c.tagName === 'SCRIPT' && attr(c, 'type') === 'application/ld+json' && LD_ARTICLE.test(c.textContent ?? '')) article = true;
  }
  return article && bodyBefore(comments, root, stats) ? 0 : comments.length;
}
