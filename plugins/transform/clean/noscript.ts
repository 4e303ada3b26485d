/**
 * The `<noscript>` rule. Pages are parsed as a browser running scripts parses them, so a noscript
 * holds its markup as raw text; here it is parsed as a browser without scripts would show it.
 * Some sites keep their real content there (Discourse renders whole threads in it), others only a
 * tracking pixel, an "enable JavaScript" note, or the non-lazy copy of an image. Text is kept
 * except such notes (alone or as one block among real text); images are kept unless they are
 * pixels or duplicate a lazy image next to them.
 */
import { countWords, parseHtmlChildren } from '../../../core/kit.ts';
import { hasLazySource, isPlaceholderSrc } from '../shared/lazy.ts';

/** Phrasings that ask the reader to turn JavaScript on, not ones that merely talk about it. */
const JS_NOTICE =
  /\b(?:enable|turn on|switch on|activate|allow)\s+(?:your\s+)?javascript\b|\bjavascript\s+(?:is|has been|seems to be|appears to be)\s+(?:currently\s+)?(?:disabled|turned off|off|not enabled|not supported|required|needed)\b|\b(?:requires?|needs?)\s+javascript\b|\bjavascript\s+(?:must|needs to)\s+be\s+(?:enabled|turned on)\b/i;
/** A real page in a noscript is long; a notice that mentions JavaScript is a sentence or two. */
const NOTICE_MAX_WORDS = 40;
/** The same for scripts without spaces between words (a Japanese notice is one "word"). */
const NOTICE_MAX_CHARS = 400;
const TRACKER_URL =
  /facebook\.com\/tr|google-analytics\.com|googletagmanager\.com|doubleclick\.net|scorecardresearch\.com|quantserve\.com|bat\.bing\.com|analytics|\/pixel|\/beacon|[?&](?:utm_|pixel)/i;

/** A short noscript that mentions JavaScript at all is a notice, in whatever language. */
export function isJavaScriptNotice(text: string): boolean {
  const flat = text.replace(/\s+/g, ' ').trim();
  return /javascript/i.test(flat) && flat.length <= NOTICE_MAX_CHARS && countWords(flat) <= NOTICE_MAX_WORDS;
}

/**
 * Inside a noscript holding real text only a block that asks for JavaScript (in English) is taken
 * for a notice: a forum post may well mention JavaScript.
 */
export function isNoticeBlock(text: string): boolean {
  // Source indentation would otherwise stretch the gap between the words.
  return isJavaScriptNotice(text) && JS_NOTICE.test(text.replace(/\s+/g, ' '));
}

/** Markup that starts like a tag: text that is escaped markup, not prose. */
const MARKUP = /^\s*<[a-z!]/i;

/**
 * Parses a noscript's raw text into its content, as a browser without scripts reads it. Pages
 * saved by a browser with scripting on may hold that markup escaped (`&lt;img …&gt;`): what parses
 * to nothing but such text is parsed once more. Either way it then goes through the same rule as
 * everything else. A noscript already holding elements (one parsed from another's markup) stays.
 */
export function expandNoscript(noscript: Element): void {
  if (noscript.firstElementChild || !noscript.firstChild) return;
  let content = parseHtmlChildren(noscript, noscript.textContent ?? '', { scripting: false });
  // (linkedom gives a fragment no textContent: its one text child has it)
  const text = content.firstChild === content.lastChild ? (content.firstChild?.textContent ?? '') : '';
  if (!content.firstElementChild && MARKUP.test(text)) content = parseHtmlChildren(noscript, text, { scripting: false });
  noscript.replaceChildren(content);
}

export function isTrackingPixel(img: Element): boolean {
  const tiny = (name: string) => /^\s*[01](?:px)?\s*$/.test(img.getAttribute(name) ?? '');
  return tiny('width') || tiny('height') || TRACKER_URL.test(img.getAttribute('src') ?? '');
}

/** The visible image this noscript is the fallback for, when the markup pairs them. */
function lazyNeighbour(noscript: Element): Element | null {
  const previous = noscript.previousElementSibling;
  if (previous?.tagName === 'IMG') return previous;
  if (previous?.tagName === 'PICTURE') return previous.querySelector('img');
  return null;
}

export function resolveNoscript(noscript: Element): void {
  // A notice may be one block among real text; document order meets the notice's outermost
  // element first, and containers holding more than the notice fail the word limit.
  for (const el of noscript.querySelectorAll('*')) {
    if (noscript.contains(el) && isNoticeBlock(el.textContent ?? '')) el.remove();
  }
  const text = noscript.textContent ?? '';
  if (countWords(text) > 0) {
    if (isJavaScriptNotice(text)) noscript.remove();
    else noscript.replaceWith(...noscript.childNodes);
    return;
  }
  for (const img of noscript.querySelectorAll('img')) if (isTrackingPixel(img)) img.remove();
  if (!noscript.querySelector('img')) {
    noscript.remove();
    return;
  }
  const neighbour = lazyNeighbour(noscript);
  if (!neighbour) noscript.replaceWith(...noscript.childNodes);
  // A placeholder that no script will ever fill (we run none) gives way to the real image.
  else if (isPlaceholderSrc(neighbour.getAttribute('src')) && !hasLazySource(neighbour)) {
    neighbour.replaceWith(...noscript.childNodes);
    noscript.remove();
  } else noscript.remove();
}

/** Innermost first, so a noscript nested in another is settled before its parent looks at it. */
export function resolveNoscripts(root: Element): void {
  for (const noscript of [...root.querySelectorAll('noscript')].reverse()) resolveNoscript(noscript);
}
