/**
 * Threads told by their structure, whatever software made them. A thread's posts are like blocks
 * (one tag and first class word, several side by side), each signed with a date and an author's
 * profile link, and the opening post is one of them: between the thread's title and the first
 * block there is no prose. Comments under an article are the same blocks, but the article's body
 * comes before them. Forum software known by its class names is recognised in forum.ts; this
 * reads the pages of the rest (and gives their posts' author and date lines to postmeta.ts).
 */
import type { StatsMap } from './scoring.ts';
import { attr, firstClass, flatText, tagOf } from './walk.ts';

/** Links to a member's profile: what names a post's author. */
const PROFILE = /\/(?:u|users?|members?|profiles?|people|authors?)\/|memberlist\.php|viewprofile|[?&](?:u|uid|userid|user)=\d|\/@[\w.-]+\/?$/i;
const DATE_PROP = /^date(?:Published|Created)$/;

/** A post's signature element: its date or its author's name. */
export interface PostMark {
  el: Element;
  date: boolean;
  /** It is the name or date line itself (a <meta> date is not shown: its parent stands in, for finding the post only). */
  shown: boolean;
}

/**
 * The mark this element is (called by the scan for each element, with its class: undefined when it
 * has no attributes), or null. A <meta> date is removed with the page's junk: its parent stands in.
 */
export function postMarkOf(el: Element, tag: string, cls: string | null | undefined): PostMark | null {
  if (tag === 'TIME') return { el, date: true, shown: true };
  if (cls === undefined) return null;
  const prop = attr(el, 'itemprop');
  if ((prop && DATE_PROP.test(prop)) || attr(el, 'datetime') !== null) {
    if (tag !== 'META') return { el, date: true, shown: true };
    return el.parentElement ? { el: el.parentElement, date: true, shown: false } : null;
  }
  // (an author property may be the whole post header, a link is the name)
  if (prop === 'author' || attr(el, 'rel') === 'author') return { el, date: false, shown: tag === 'A' };
  return tag === 'A' && PROFILE.test(attr(el, 'href') ?? '') ? { el, date: false, shown: true } : null;
}

/** Like blocks side by side, this many at least, make a list of posts … */
const MIN_POSTS = 3;
/** … when most of them are signed … */
const SIGNED = 0.8;
/** … they hold this share of the page's text, and are prose (text per post, link density) … */
const POSTS_SHARE = 0.4;
const POST_TEXT = 100;
const POSTS_LINKS = 0.3;
/** … and no more prose than this (visible characters) comes between the title and the first. */
const PROSE_BEFORE = 300;
/** Prose before like blocks, this many times as long as one of them on average, is the body they comment on. */
const BODY_TIMES = 2;
/** Own text of a block from which it is prose. */
const PROSE_LINE = 80;
/** Levels a mark may sit below its post. */
const MAX_DEPTH = 12;
/** Marks read (a long thread has hundreds: its first posts are enough to find their list). */
const MAX_MARKS = 400;

export interface Thread {
  /** The posts, in document order. */
  posts: Element[];
  /** Their authors' names and dates. */
  meta: Element[];
}

interface Group {
  posts: Map<Element, { date: boolean; author: boolean }>;
  meta: Element[];
}

/**
 * The page's thread, or null: the list of posts its marks sign (see the header), holding most of
 * its text, with the opening post among them (or, where the URL says forum or thread, above them
 * and no longer than a few of them). `stats` measure `root` in document order.
 */
export function findThread(root: Element, marks: readonly PostMark[], stats: StatsMap, forumUrl: boolean): Thread | null {
  const groups = new Map<string, Group>();
  const like = new Map<Element, boolean>();
  const ids = new Map<Element, number>();
  for (const mark of marks.slice(0, MAX_MARKS)) {
    const post = postOf(mark.el, root, like);
    if (!post) continue;
    const parent = post.parentElement!;
    let id = ids.get(parent);
    if (id === undefined) ids.set(parent, (id = ids.size));
    const key = `${id} ${tagOf(post)} ${firstClass(post)}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { posts: new Map(), meta: [] }));
    const signs = g.posts.get(post) ?? { date: false, author: false };
    if (mark.date) signs.date = true;
    else signs.author = true;
    g.posts.set(post, signs);
    // (an avatar's link shows a picture or an initial, not the name)
    if (mark.shown && flatText(mark.el).length > 1) g.meta.push(mark.el);
  }
  const total = stats.get(root)?.text ?? 0;
  let best: Group | null = null;
  let bestText = 0;
  for (const g of groups.values()) {
    const text = postsText(g, stats);
    if (text > bestText && isThread(g, text, total, root, stats, forumUrl)) {
      best = g;
      bestText = text;
    }
  }
  return best && { posts: [...best.posts.keys()], meta: best.meta };
}

/** The block a mark signs: its nearest ancestor with like siblings (LI, ARTICLE and TR items need no class). */
function postOf(mark: Element, root: Element, like: Map<Element, boolean>): Element | null {
  let el = mark;
  for (let up = 0; up < MAX_DEPTH && el !== root; up++) {
    const parent = el.parentElement;
    if (!parent) return null;
    let rep = like.get(el);
    if (rep === undefined) {
      rep = repeated(el, parent);
      like.set(el, rep);
    }
    if (rep) return el;
    el = parent;
  }
  return null;
}

function repeated(el: Element, parent: Element): boolean {
  const tag = tagOf(el);
  const word = firstClass(el);
  if (!word && tag !== 'LI' && tag !== 'ARTICLE' && tag !== 'TR') return false;
  let n = 0;
  for (let c = parent.firstElementChild; c && n < MIN_POSTS; c = c.nextElementSibling) if (tagOf(c) === tag && firstClass(c) === word) n++;
  return n >= MIN_POSTS;
}

function postsText(g: Group, stats: StatsMap): number {
  let text = 0;
  for (const p of g.posts.keys()) text += stats.get(p)?.text ?? 0;
  return text;
}

function isThread(g: Group, text: number, total: number, root: Element, stats: StatsMap, forumUrl: boolean): boolean {
  const n = g.posts.size;
  if (n < MIN_POSTS || text < total * POSTS_SHARE || text < n * POST_TEXT) return false;
  let dated = 0;
  let signed = 0;
  let titled = 0;
  let links = 0;
  for (const [p, s] of g.posts) {
    if (s.date) dated++;
    if (s.author) signed++;
    // (a listing's items each have a title linking to their page: teasers, not posts)
    if (titledTeaser(p)) titled++;
    links += stats.get(p)?.link ?? 0;
  }
  if (Math.max(dated, signed) < n * SIGNED || titled * 2 >= n || links > text * POSTS_LINKS) return false;
  const before = proseBefore(g.posts.keys().next().value!, root, stats);
  // (a post shown apart from its replies, a link aggregator's story, is a thread where the URL says so and it is no article dwarfing them)
  return before <= PROSE_BEFORE || (forumUrl && before < (text / n) * BODY_TIMES);
}

/** Is there a body before these blocks (document order), long beside them? */
export function bodyBefore(blocks: readonly Element[], root: Element, stats: StatsMap): boolean {
  // (only blocks still in the page: hidden ones were removed after the scan noted them)
  const live = blocks.filter((b) => stats.has(b));
  if (!live.length) return false;
  let text = 0;
  for (const b of live) text += stats.get(b)!.text;
  const prose = proseBefore(live[0]!, root, stats);
  return prose > PROSE_BEFORE && prose >= (text / live.length) * BODY_TIMES;
}

/** Prose between the page's first <h1> (its start when there is none) and `first`. */
function proseBefore(first: Element, root: Element, stats: StatsMap): number {
  const h1 = root.getElementsByTagName('h1')[0];
  let counting = !h1;
  let prose = 0;
  // (stats are kept in document order; linkedom's compareDocumentPosition misorders nodes at different depths)
  for (const [el, s] of stats) {
    if (el === first) break;
    if (el === h1) counting = true;
    else if (counting && s.inl >= PROSE_LINE && s.inlLink < s.inl * POSTS_LINKS) prose += s.inl;
  }
  return prose;
}

const TITLES = ['H1', 'H2', 'H3', 'H4'];

/** Has the block a heading linking to another page (not to a member's profile, nor into this page)? */
function titledTeaser(post: Element): boolean {
  for (const t of TITLES) {
    for (const h of post.getElementsByTagName(t)) {
      for (const a of h.getElementsByTagName('a')) {
        const href = attr(a, 'href') ?? '';
        if (href !== '' && !href.includes('#') && !PROFILE.test(href)) return true;
      }
    }
  }
  return false;
}
