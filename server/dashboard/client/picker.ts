/**
 * The selector picker: the page's HTML (from POST /v1/scrape, `rawHtml`) shown in a sandboxed
 * srcdoc frame where its scripts cannot run; clicking an element builds a CSS selector for it that
 * matches that element alone (an id when there is one, else classes and :nth-of-type up the tree).
 * Steps are joined as descendants and leave out <tbody>, which browsers add to tables that lack it
 * while the server's parser may not.
 */
import { api } from './api.ts';
import { $, say } from './dom.ts';

const MAX_HTML = 3_000_000;

/** A selector matching `target` alone in its document. */
export function selectorFor(target: Element): string {
  const doc = target.ownerDocument;
  const unique = (s: string) => doc.querySelectorAll(s).length === 1;
  const parts: string[] = [];
  for (let node: Element | null = target; node && node !== doc.documentElement; node = node.parentElement) {
    if (node.localName === 'tbody') continue;
    if (node.id && unique(`#${CSS.escape(node.id)}`)) {
      parts.unshift(`#${CSS.escape(node.id)}`);
      break;
    }
    let part = node.localName;
    // Class names that look generated (digits, long hashes) change between builds: left out.
    const classes = [...node.classList].filter((c) => /^[a-zA-Z][\w-]{0,30}$/.test(c) && !/\d{3}/.test(c)).slice(0, 2);
    part += classes.map((c) => `.${CSS.escape(c)}`).join('');
    const parent = node.parentElement;
    if (parent) {
      const same = [...parent.children].filter((c) => c.localName === node!.localName);
      if (same.length > 1) part += `:nth-of-type(${same.indexOf(node) + 1})`;
    }
    parts.unshift(part);
    if (unique(parts.join(' '))) break;
  }
  return parts.join(' ');
}

let highlighted: HTMLElement | null = null;

// The frame's elements belong to its own window, so `instanceof` this window's classes says no.
const isElement = (target: EventTarget | null): target is HTMLElement =>
  (target as Node | null)?.nodeType === Node.ELEMENT_NODE && 'style' in (target as object);

function mark(target: EventTarget | null): void {
  if (highlighted) highlighted.style.outline = '';
  highlighted = isElement(target) ? target : null;
  if (highlighted) highlighted.style.outline = '2px solid #d97706';
}

/** Opens the picker on `url`; `picked` gets each selector the user clicks. */
export async function openPicker(url: string, picked: (selector: string) => void): Promise<void> {
  if (!url) {
    say("Give the page's URL first.", true);
    return;
  }
  say('Loading the page…');
  const page = await api<{ rawHtml?: string }>('POST', '/v1/scrape', { url, formats: ['rawHtml'] });
  const html = page.rawHtml ?? '';
  if (!html) {
    say('The page has no HTML to pick from.', true);
    return;
  }
  const frame = $<HTMLIFrameElement>('pick-frame');
  $('picker').hidden = false;
  $('pick-selector').textContent = '';
  frame.onload = () => {
    const doc = frame.contentDocument;
    if (!doc) return;
    doc.addEventListener('mouseover', (e) => mark(e.target), true);
    doc.addEventListener(
      'click',
      (e) => {
        e.preventDefault();
        e.stopPropagation();
        if (!isElement(e.target)) return;
        const selector = selectorFor(e.target);
        $('pick-selector').textContent = selector;
        picked(selector);
      },
      true,
    );
    say('Click the part of the page to watch.');
  };
  frame.srcdoc = html.slice(0, MAX_HTML);
}

export function closePicker(): void {
  const frame = $<HTMLIFrameElement>('pick-frame');
  frame.onload = null;
  frame.srcdoc = '';
  $('picker').hidden = true;
}
