/**
 * Threads told by their structure, whatever software made them. A thread's posts are like blocks
 * (one tag and first class word, several side by side), each signed with a date and an author's
 * profile link, and the opening post is one of them: between the thread's title and the first
 * block there is no prose. Comments under an article are the same blocks, but the article's body
 * comes before them. Forum software known by its class names is recognised in forum.ts; this
 * reads the pages of the rest (and gives their posts' author and date lines to postmeta.ts).
 */
import { PROFILE, type PostMark } from './postmarks.ts';
import type { StatsMap } from './scoring.ts';
import { attr, firstClass, flatText, tagOf } from './walk.ts';

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
/** Marks read to find the posts (a long thread has hundreds: its first posts are enough to find their list). */
const MAX_MARKS = 150;

export interface Thread {
  /** The posts its first marks sign, in document order. */
  posts: Element[];
  /** The authors' names and dates of all its posts. */
  meta: Element[];
}

type Group = Map<Element, { date: boolean; author: boolean }>;

/**
 * The page's thread, or null: the list of posts its marks sign (see the header), holding most of
 * its text, with the opening post among them (or, where the URL says forum or thread, above them
 * and no longer than a few of them). `stats` measure `root` in document order.
 */
export function findThread(root: Element, marks: readonly PostMark[], stats: StatsMap, forumUrl: boolean): Thread | null {
  const groups = new Map<string, Group>();
  const like = new Map<Element, boolean>();
  const kinds = new Map<Element, Map<string, number>>();
  const ids = new Map<Element, number>();
  for (const mark of marks.slice(0, MAX_MARKS)) {
    const post = postOf(mark.el, root, like, kinds);
    if (!post) continue;
    const parent = post.parentElement!;
    let id = ids.get(parent);
    if (id === undefined) ids.set(parent, (id = ids.size));
    const key = `${id} ${tagOf(post)} ${firstClass(post)}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = new Map()));
    const signs = g.get(post) ?? { date: false, author: false };
    if (mark.date) signs.date = true;
    else signs.author = true;
    g.set(post, signs);
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
  if (!best) return null;
  // (an avatar's link shows a picture or an initial, not the name)
  const meta = marks.filter((m) => m.shown && inPost(m.el, best, root) && flatText(m.el).length > 1).map((m) => m.el);
  return { posts: [...best.keys()], meta };
}

/** Is `el` in one of the posts (those the first marks found, or their like siblings after them), at most MAX_DEPTH levels below it? */
function inPost(el: Element, posts: Group, root: Element): boolean {
  const first = posts.keys().next().value!;
  const tag = tagOf(first);
  const word = firstClass(first);
  let a: Element | null = el;
  for (let up = 0; a && a !== root && up <= MAX_DEPTH; up++, a = a.parentElement) {
    if (posts.has(a) || (a.parentElement === first.parentElement && tagOf(a) === tag && firstClass(a) === word)) return true;
  }
  return false;
}

/** The block a mark signs: its nearest ancestor with like siblings (LI, ARTICLE and TR items need no class). */
function postOf(mark: Element, root: Element, like: Map<Element, boolean>, kinds: Map<Element, Map<string, number>>): Element | null {
  let el = mark;
  for (let up = 0; up < MAX_DEPTH && el !== root; up++) {
    const parent = el.parentElement;
    if (!parent) return null;
    let rep = like.get(el);
    if (rep === undefined) {
      const tag = tagOf(el);
      const word = firstClass(el);
      rep =
        (!!word || tag === 'LI' || tag === 'ARTICLE' || tag === 'TR') && (kindsOf(parent, kinds).get(`${tag} ${word}`) ?? 0) >= MIN_POSTS;
      like.set(el, rep);
    }
    if (rep) return el;
    el = parent;
  }
  return null;
}

/** How many children of each kind (tag and first class word) `parent` has, counted once per parent. */
function kindsOf(parent: Element, kinds: Map<Element, Map<string, number>>): Map<string, number> {
  let k = kinds.get(parent);
  if (!k) {
    k = new Map();
    for (let c = parent.firstElementChild; c; c = c.nextElementSibling) {
      const key = `${tagOf(c)} ${firstClass(c)}`;
      k.set(key, (k.get(key) ?? 0) + 1);
    }
    kinds.set(parent, k);
  }
  return k;
}

function postsText(g: Group, stats: StatsMap): number {
  let text = 0;
  for (const p of g.keys()) text += stats.get(p)?.text ?? 0;
  return text;
}

function isThread(g: Group, text: number, total: number, root: Element, stats: StatsMap, forumUrl: boolean): boolean {
  const n = g.size;
  if (n < MIN_POSTS || text < total * POSTS_SHARE || text < n * POST_TEXT) return false;
  let dated = 0;
  let signed = 0;
  let links = 0;
  for (const [p, s] of g) {
    if (s.date) dated++;
    if (s.author) signed++;
    links += stats.get(p)?.link ?? 0;
  }
  if (Math.max(dated, signed) < n * SIGNED || links > text * POSTS_LINKS) return false;
  // (a listing's items each have a title linking to their page: teasers, not posts)
  let titled = 0;
  for (const p of g.keys()) if (titledTeaser(p) && ++titled * 2 >= n) return false;
  const before = proseBefore(g.keys().next().value!, root, stats);
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
  const h1 = root.querySelector('h1');
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

const TITLES = new Set(['H1', 'H2', 'H3', 'H4']);
/** Elements of an item's head looked through for its title (a teaser's title tops it; a thread's replies nest below). */
const HEAD_ELEMENTS = 40;

/** Has the block a heading, near its top, linking to another page (not to a member's profile, nor into this page)? */
function titledTeaser(post: Element): boolean {
  let seen = 0;
  // (depth first, a bounded number of elements: a comment's subtree may hold the whole thread below it)
  const stack: Element[] = [post];
  while (stack.length && seen++ < HEAD_ELEMENTS) {
    const el = stack.pop()!;
    if (TITLES.has(tagOf(el))) {
      for (const a of el.getElementsByTagName('a')) {
        const href = attr(a, 'href') ?? '';
        if (href !== '' && !href.includes('#') && !PROFILE.test(href)) return true;
      }
      continue;
    }
    for (let c = el.lastElementChild; c; c = c.previousElementSibling) stack.push(c);
  }
  return false;
}
