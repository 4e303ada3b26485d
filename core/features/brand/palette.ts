/**
 * The brand's colours from every source it has, colour maths by culori: custom properties named
 * for a role (`--primary`, `--brand-color`, `--bg`, `--text`, `--link`, shadcn's bare
 * `222 47% 11%` HSL triples too) first — they are the site's own words for its palette; then, when
 * the page was rendered, computed styles weighted by painted area (what visitors see); then
 * `theme-color`, the manifest, and the stylesheets' page, link and button rules. Each chosen colour
 * names its source.
 */
import { differenceCiede2000, formatHex, parse, wcagLuminance, converter } from 'culori';
import { resolveVariables, type CssFacts, type Declaration } from './css.ts';

export const COLOR_ROLES = ['primary', 'secondary', 'accent', 'background', 'text', 'link'] as const;
export type ColorRole = (typeof COLOR_ROLES)[number];

/** Colours the rendered page painted, with the area (px²) each covered. */
export interface ComputedColors {
  background: string | null;
  text: string | null;
  links: Array<[string, number]>;
  buttons: Array<[string, number]>;
}

export interface PaletteInput {
  css: CssFacts;
  themes: Array<{ color: string; media?: string }>;
  manifest: { themeColor?: string; backgroundColor?: string } | null;
  computed: ComputedColors | null;
}

export interface Palette {
  colors: Record<ColorRole, string | null>;
  sources: Partial<Record<ColorRole, string>>;
  colorScheme: 'light' | 'dark';
}

const toHsl = converter('hsl');
const distance = differenceCiede2000();
const MODIFIERS = new Set([
  'hover',
  'active',
  'focus',
  'visited',
  'disabled',
  'muted',
  'light',
  'lighter',
  'dark',
  'darker',
  'subtle',
  'contrast',
  'inverse',
  'rgb',
  'hsl',
  'alpha',
  'border',
  'shadow',
  'ring',
  'invert',
  'soft',
  'weak',
  'strong',
  'emphasis',
  'transparent',
  'opacity',
]);
const ROLE_WORDS: Record<ColorRole, readonly string[]> = {
  primary: ['primary', 'brand'],
  secondary: ['secondary'],
  accent: ['accent', 'highlight', 'tertiary'],
  background: ['background', 'bg'],
  text: ['text', 'foreground', 'fg'],
  link: ['link'],
};

/** A CSS colour as #rrggbb, or null (unparseable, or mostly transparent). */
export function hexColor(value: string | null | undefined): string | null {
  if (!value) return null;
  const text = value.trim();
  // shadcn/ui and Tailwind themes keep bare HSL or RGB channels in their variables
  const bare = /^(\d+(?:\.\d+)?)(?:deg)?\s+(\d+(?:\.\d+)?)%\s+(\d+(?:\.\d+)?)%$/.exec(text);
  const color = parse(bare ? `hsl(${bare[1]} ${bare[2]}% ${bare[3]}%)` : text);
  if (!color || (color.alpha !== undefined && color.alpha < 0.5)) return null;
  return formatHex(color);
}

/** Saturated enough and neither near white nor near black: a colour a brand chose. */
export function isChromatic(hex: string): boolean {
  const hsl = toHsl(hex);
  return !!hsl && (hsl.s ?? 0) > 0.2 && hsl.l > 0.12 && hsl.l < 0.9;
}

const distinct = (a: string, b: string) => distance(a, b) > 12;

const FILLER = new Set(['color', 'colour', 'clr', 'theme', 'site', 'global', 'base', 'main', 'page', 'default', 'ui', 'bs', 'c']);
/** Words that name a component, never a vendor prefix: `--form-background` is a form's. */
const COMPONENTS = new Set([
  'form',
  'input',
  'button',
  'btn',
  'header',
  'footer',
  'nav',
  'navbar',
  'card',
  'modal',
  'menu',
  'sidebar',
  'table',
  'code',
  'tooltip',
  'badge',
  'alert',
  'toast',
  'dropdown',
  'popover',
  'panel',
  'hero',
  'field',
  'tab',
  'tabs',
  'list',
  'item',
  'chip',
  'dialog',
  'overlay',
  'editor',
  'selection',
  'scrollbar',
  'popup',
  'banner',
  'section',
  'heading',
  'title',
  'label',
  'placeholder',
  'icon',
  'select',
  'hr',
  'mark',
  'kbd',
]);

/**
 * The role a custom property's name gives it, or null. Besides filler (`color`, `theme`, `site` …)
 * and one vendor prefix (`--bs-`, `--acme-`), the name must be the role's word and nothing else:
 * `--color-brand-primary` and `--bs-link-color` are roles, `--form-background` and
 * `--header-text-color` describe one component, `--primary-hover` a state.
 */
export function variableRole(name: string): ColorRole | null {
  let words = name.replace(/^--/, '').toLowerCase().split(/[-_]+/).filter(Boolean);
  if (words.some((w) => MODIFIERS.has(w) || /^\d+$/.test(w))) return null;
  const named = words.some((w) => w === 'color' || w === 'colour');
  words = words.filter((w) => !FILLER.has(w));
  const isRoleWord = (w: string) => COLOR_ROLES.some((role) => ROLE_WORDS[role].includes(w)) || w === 'body';
  if (words.length >= 2 && !isRoleWord(words[0]!) && !COMPONENTS.has(words[0]!)) words = words.slice(1);
  // Bootstrap's `--bs-body-color` and `--bs-body-bg` are the page's text and background.
  if (words[0] === 'body') words = words.length === 1 && named ? ['text'] : words.slice(1);
  if (words.length === 2 && words[0] === 'brand') words = words.slice(1);
  if (words.length !== 1) return null;
  return COLOR_ROLES.find((role) => ROLE_WORDS[role].includes(words[0]!)) ?? null;
}

const firstColorIn = (value: string) =>
  hexColor(value) ??
  value
    .split(/\s+(?![^(]*\))/)
    .map(hexColor)
    .find(Boolean) ??
  null;
const PAGE = /^(?:html|body|:root)$/i;
const LINK = /(?:^|[\s>+~])a(?:$|[:.[#\s])/i;
const BUTTON = /\b(?:button|btn|cta)\b/i;

function ruleColors(css: CssFacts, variables: ReadonlyMap<string, string>) {
  const color = (d: Declaration) => firstColorIn(resolveVariables(d.value, variables) ?? '');
  const light = css.declarations.filter((d) => !d.dark && !/:(?:hover|focus|active|visited)/.test(d.selector));
  const bySelector = (pattern: RegExp, properties: string[]) =>
    light
      .filter((d) => properties.includes(d.property) && d.selector.split(',').some((s) => pattern.test(s.trim())))
      .map(color)
      .filter((c): c is string => !!c);
  const counts = new Map<string, number>();
  for (const d of light) {
    const c = d.property === 'font' || d.property === 'font-family' ? null : color(d);
    if (c && isChromatic(c)) counts.set(c, (counts.get(c) ?? 0) + 1);
  }
  return {
    background: bySelector(PAGE, ['background-color', 'background']).at(-1) ?? null,
    text: bySelector(PAGE, ['color']).at(-1) ?? null,
    link: bySelector(LINK, ['color'])[0] ?? null,
    buttons: bySelector(BUTTON, ['background-color', 'background']).filter(isChromatic),
    frequent: [...counts].sort((a, b) => b[1] - a[1]).map(([c]) => c),
  };
}

const byArea = (list: Array<[string, number]>) =>
  list
    .filter(([c]) => hexColor(c))
    .sort((a, b) => b[1] - a[1])
    .map(([c]) => hexColor(c)!);

export function decidePalette(input: PaletteInput, scheme: string | null): Palette {
  const { css, computed } = input;
  const colors: Record<ColorRole, string | null> = {
    primary: null,
    secondary: null,
    accent: null,
    background: null,
    text: null,
    link: null,
  };
  const sources: Partial<Record<ColorRole, string>> = {};
  const set = (role: ColorRole, value: string | null | undefined, source: string, chromatic = false) => {
    if (colors[role] || !value || (chromatic && !isChromatic(value))) return;
    // secondary and accent must differ from the colours already chosen
    if ((role === 'secondary' || role === 'accent') && [colors.primary, colors.secondary].some((c) => c && !distinct(c, value))) return;
    colors[role] = value;
    sources[role] = source;
  };
  for (const [name, value] of css.variables) {
    const role = variableRole(name);
    if (role) set(role, hexColor(resolveVariables(value, css.variables)), 'css-variable');
  }
  if (computed) {
    set('background', hexColor(computed.background), 'computed');
    set('text', hexColor(computed.text), 'computed');
    const buttons = byArea(computed.buttons).filter(isChromatic);
    set('primary', buttons[0], 'computed');
    set('link', byArea(computed.links)[0], 'computed');
    for (const c of buttons.slice(1)) set('secondary', c, 'computed');
  }
  const lightTheme = input.themes.find((t) => !/dark/i.test(t.media ?? '')) ?? input.themes[0];
  set('primary', hexColor(lightTheme?.color), 'theme-color', true);
  set('primary', hexColor(input.manifest?.themeColor), 'manifest', true);
  set('background', hexColor(input.manifest?.backgroundColor), 'manifest');
  const rules = ruleColors(css, css.variables);
  set('background', rules.background, 'stylesheet');
  set('text', rules.text, 'stylesheet');
  set('link', rules.link, 'stylesheet');
  set('primary', rules.buttons[0] ?? rules.frequent[0], 'stylesheet');
  for (const c of [...rules.buttons, ...rules.frequent]) set('secondary', c, 'stylesheet');
  for (const c of [...rules.buttons, ...rules.frequent, colors.link]) set('accent', c, 'stylesheet', true);
  const background = colors.background;
  const colorScheme = background
    ? wcagLuminance(background) < 0.2
      ? 'dark'
      : 'light'
    : /^\s*dark\b/i.test(scheme ?? '')
      ? 'dark'
      : 'light';
  return { colors, sources, colorScheme };
}
