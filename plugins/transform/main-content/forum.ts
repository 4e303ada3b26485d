/**
 * Forum / Q&A thread recognition. On a thread the posts *are* the content, so comment and reply
 * blocks must not be dropped as boilerplate, and post authors and dates are kept.
 */
import { attr } from './walk.ts';

const FORUM_URL = /\/(?:t|threads?|topics?|forums?|community|discussions?|questions|viewtopic|showthread|boards?|posts?)\b|[?&](?:t|topic|threadid)=|\bforums?\.|\bcommunity\.|\bdiscuss\.|\bdiscourse\./i;
const GENERATOR = /discourse|xenforo|phpbb|vbulletin|invision|mybb|smf|flarum|nodebb|vanilla/i;
/**
 * Class words of post containers in common forum software (Discourse, XenForo, phpBB, vBulletin, Stack Exchange,
 * Invision Community 5 and 4: ipsEntry--post, cPost; Lemmy: comment-node …).
 * Not WordPress's 'comment-body' nor FAQ Question/Answer microdata: blog articles carry those too.
 */
const POST_CLASS = /(?:^|\s)(?:crawler-post|topic-body|message--post|postbody|post-body|postcontainer|answercell|postcell|js-post|forum-post|bbwrapper|cooked|post-message|messagecontent|post-content|ipsentry--post|cpost|comment-node)(?:\s|$)/i;
const POST_TYPE = /DiscussionForumPosting|QAPage|\/Comment\b/;
/** A thread's own JSON-LD: the page says it is a forum posting or a Q&A page. */
const LD_THREAD = /"@type"\s*:\s*\[?\s*"(?:DiscussionForumPosting|QAPage)"/;

/** Does this element look like a forum post container? (Called once per element by the scan, with its class: undefined when it has no attributes.) */
export function looksLikePost(el: Element, tag: string, cls: string | null | undefined): boolean {
  if (tag === 'SHREDDIT-COMMENT') return true;
  if (cls && POST_CLASS.test(cls)) return true;
  const itemtype = cls === undefined ? null : attr(el, 'itemtype');
  return !!itemtype && POST_TYPE.test(itemtype);
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
  return postHits >= 1 && !!url && FORUM_URL.test(url);
}
