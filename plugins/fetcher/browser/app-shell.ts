/**
 * Does a statically fetched HTML page need JavaScript to show its content? True for an "app
 * shell": nearly no visible text, scripts present, and either an empty mount point of a client-side
 * framework or a <noscript> notice asking for JavaScript. A short static page without scripts
 * never qualifies, so plain pages are never rendered twice.
 */
import { countWords, textOf } from '../../../core/kit.ts';
import type { DomDocument } from '../../../core/kit.ts';

/** Mount points of the common client-side frameworks (React, Next, Nuxt, Vue, Angular, Svelte, Gatsby, Ember). */
const MOUNT_POINTS = [
  '#root',
  '#app',
  '#__next',
  '#__nuxt',
  '#___gatsby',
  '#svelte',
  '#ember-app',
  '#main-app',
  '#application',
  '[data-reactroot]',
  '[ng-app]',
  '[ng-version]',
  'app-root',
  '[data-server-rendered]',
  '[data-v-app]',
].join(',');

const JS_NOTICE =
  /\b(enable|requires?|turn on|needs?)\b[^.]{0,40}\bjavascript\b|\bjavascript\b[^.]{0,40}\b(required|disabled|enabled|needed)\b/i;

export interface AppShellVerdict {
  shell: boolean;
  /** Words of visible text in the body, for the log. */
  words: number;
}

export function detectAppShell(dom: DomDocument, maxWords: number): AppShellVerdict {
  const body = dom.body;
  const words = body ? countWords(textOf(body)) : 0;
  if (!body || words > maxWords) return { shell: false, words };
  if (!dom.querySelector('script')) return { shell: false, words };
  const mount = dom.querySelector(MOUNT_POINTS);
  const emptyMount = mount !== null && countWords(textOf(mount)) <= maxWords;
  const notice = [...dom.querySelectorAll('noscript')].some((n) => JS_NOTICE.test(n.textContent ?? ''));
  return { shell: emptyMount || notice, words };
}
