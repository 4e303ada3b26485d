/**
 * The brand's type: the family used for headings, body text and code, from the rendered page's
 * computed styles when there are some, else the custom properties named for a role
 * (`--font-heading`, `--font-body`, `--font-mono`), else the rules for headings, the page and code.
 * A family is the first one of its stack that is not a generic fallback.
 */
import { resolveVariables, type CssFacts } from './css.ts';

export type FontRole = 'heading' | 'body' | 'code';
export interface BrandFont {
  family: string;
  role: FontRole;
  /** `computed`, `css-variable`, `stylesheet`. */
  source: string;
}

const GENERIC =
  /^(?:serif|sans-serif|monospace|cursive|fantasy|emoji|math|fangsong|inherit|initial|unset|revert|apple color emoji|segoe ui emoji|segoe ui symbol|noto color emoji)$/i;
/** A stack that starts with the platform's own font is the system font stack, whatever it lists after. */
const SYSTEM = /^(?:system-ui|-apple-system|blinkmacsystemfont|ui-sans-serif|ui-serif|ui-monospace)$/i;
const ROLE_SELECTORS: Record<FontRole, RegExp> = {
  heading: /^(?:h[1-6]|\.(?:title|heading|headline|display)[\w-]*)$/i,
  body: /^(?:html|body|:root|p)$/i,
  code: /^(?:code|pre|kbd|samp|tt|\.code[\w-]*)$/i,
};
const ROLE_VARIABLES: Record<FontRole, RegExp> = {
  heading: /^--(?:font-(?:heading|headings|display|title)|(?:heading|display)-font(?:-family)?)$/i,
  body: /^--(?:font-(?:body|sans|base|text|family|primary)|(?:body|base)-font(?:-family)?)$/i,
  code: /^--(?:font-(?:mono|code|monospace)|(?:mono|code)-font(?:-family)?)$/i,
};

/** The first named family of a stack; `system-ui` for the system font stack; null for generic names only. */
export function primaryFamily(stack: string | null | undefined): string | null {
  const families = (stack ?? '')
    .split(',')
    .map((f) =>
      f
        .trim()
        .replace(/^["']|["']$/g, '')
        .trim(),
    )
    .filter((f) => f && !f.includes('('));
  if (families[0] && SYSTEM.test(families[0])) return 'system-ui';
  return families.find((f) => !GENERIC.test(f)) ?? null;
}

/** `font: italic 700 1.2rem/1.4 "Inter", sans-serif` → its family part. */
const familyOfShorthand = (value: string) =>
  /^.*(?:^|\s)(?:[\d.]+[a-z%]*|(?:xx?-)?(?:small|large)|medium|larger|smaller)(?:\/\S+)?\s+([^\d\s].*)$/i.exec(value)?.[1] ?? null;

export function decideFonts(css: CssFacts, computed: Partial<Record<FontRole, string>> | null, webFonts: readonly string[]): BrandFont[] {
  const found = new Map<FontRole, BrandFont>();
  const set = (role: FontRole, stack: string | null | undefined, source: string) => {
    const family = primaryFamily(stack && resolveVariables(stack, css.variables));
    if (family && !found.has(role)) found.set(role, { family, role, source });
  };
  for (const role of ['heading', 'body', 'code'] as const) {
    set(role, computed?.[role], 'computed');
    for (const [name, value] of css.variables) if (ROLE_VARIABLES[role].test(name)) set(role, value, 'css-variable');
    for (const d of css.declarations) {
      if (d.dark || !d.selector.split(',').some((s) => ROLE_SELECTORS[role].test(s.trim()))) continue;
      set(role, d.property === 'font' ? familyOfShorthand(d.value) : d.property === 'font-family' ? d.value : null, 'stylesheet');
    }
  }
  // A site that loads one web font and names no role for it sets its body text in it.
  if (!found.has('body') && webFonts.length === 1) found.set('body', { family: webFonts[0]!, role: 'body', source: 'web-font' });
  return [...found.values()];
}
