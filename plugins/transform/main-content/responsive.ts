/**
 * Bootstrap's responsive display utilities: `d-none d-md-block` hides an element on phones and
 * shows it from a breakpoint up, `d-lg-none` the reverse. Pages are judged as a desktop browser
 * shows them, so the rule in force at the `lg` breakpoint decides: a shop's desktop buy box
 * (name, price, pitch) is often marked this way, beside a phone-only copy of its title.
 * (Tailwind's `hidden lg:block` was tried too and lost: there it mostly marks per-row buttons of
 * listings and phone-only story lists, which references keep or leave out inconsistently.)
 */

/** Breakpoints up to a desktop window, smallest first ('' is the base rule). */
const STEPS = ['', 'sm', 'md', 'lg'];

const DISPLAY =
  /^d-(?:(sm|md|lg|xl|xxl)-)?(none|block|flex|inline|inline-block|inline-flex|grid|inline-grid|table|table-cell|table-row|contents)$/;

/**
 * Shown (true) or hidden (false) at desktop width by responsive display classes, or null when the
 * class names no breakpoint (the plain hidden-class rules then apply).
 */
export function desktopDisplay(cls: string): boolean | null {
  if (!cls.includes('d-')) return null;
  let responsive = false;
  let step = -1;
  let shown = true;
  for (const word of cls.split(/\s+/)) {
    const m = DISPLAY.exec(word);
    if (!m) continue;
    if (m[1]) responsive = true;
    const at = STEPS.indexOf(m[1] ?? '');
    // (xl and up apply only above a desktop window's width; the highest rule up to lg wins)
    if (at < step) continue;
    step = at;
    shown = m[2] !== 'none';
  }
  return responsive && step >= 0 ? shown : null;
}
