/**
 * What the rendered page paints, measured in Chromium by an `executeJavascript` action of the
 * brand's scrape: the page's background and text colour, the background colours of its buttons
 * and the colours of its text links, each weighted by the area its elements cover (within the
 * first 3,000 pixels of the page, where the brand shows), and the computed font stacks of body
 * text, headings and code. The answer is checked before it is believed: the page's own scripts
 * run in the same window and could change what comes back.
 */
import { z } from 'zod';
import type { ComputedColors } from './palette.ts';
import type { FontRole } from './fonts.ts';

export const PALETTE_SCRIPT = `
const transparent = (c) => !c || c === 'transparent' || /^rgba\\(.*,\\s*0(?:\\.0+)?\\)$/.test(c);
const area = (el) => {
  const r = el.getBoundingClientRect();
  const top = r.top + scrollY, bottom = r.bottom + scrollY;
  return Math.max(0, Math.min(r.right, innerWidth) - Math.max(r.left, 0)) * Math.max(0, Math.min(bottom, 3000) - Math.max(top, 0));
};
const shown = (el) => { const s = getComputedStyle(el); return s.display !== 'none' && s.visibility !== 'hidden' && Number(s.opacity) > 0.1; };
const tally = (list, property, limit) => {
  const totals = {};
  for (const el of Array.from(document.querySelectorAll(list)).slice(0, limit)) {
    if (!shown(el)) continue;
    const color = getComputedStyle(el)[property];
    const painted = area(el);
    if (!transparent(color) && painted > 0) totals[color] = (totals[color] || 0) + painted;
  }
  return Object.entries(totals);
};
const buttons = 'button, [role=button], input[type=submit], input[type=button], .btn, .button, a[class*=btn], a[class*=button]';
const body = document.body, root = document.documentElement;
const font = (selector) => { const el = document.querySelector(selector); return el ? getComputedStyle(el).fontFamily : null; };
const background = [body, root].map((el) => el && getComputedStyle(el).backgroundColor).find((c) => !transparent(c)) || 'rgb(255, 255, 255)';
return {
  background,
  text: body ? getComputedStyle(body).color : null,
  buttons: tally(buttons, 'backgroundColor', 300),
  links: tally('a[href]:not([class*=btn]):not([class*=button]):not([role=button])', 'color', 500),
  fonts: { body: body ? getComputedStyle(body).fontFamily : null, heading: font('h1, h2, h3'), code: font('code, pre, kbd') },
};`;

const tallies = z.array(z.tuple([z.string().max(100), z.number().finite().nonnegative()])).max(500);
const renderedSchema = z.object({
  background: z.string().max(100).nullable(),
  text: z.string().max(100).nullable(),
  buttons: tallies,
  links: tallies,
  fonts: z.object({
    body: z.string().max(1000).nullable(),
    heading: z.string().max(1000).nullable(),
    code: z.string().max(1000).nullable(),
  }),
});

export interface Rendered {
  colors: ComputedColors;
  fonts: Partial<Record<FontRole, string>>;
}

/** The script's answer, or null when it is missing or not what the script returns. */
export function readRendered(value: unknown): Rendered | null {
  const parsed = renderedSchema.safeParse(value);
  if (!parsed.success) return null;
  const { fonts, ...colors } = parsed.data;
  return {
    colors,
    fonts: Object.fromEntries(Object.entries(fonts).filter(([, stack]) => stack)) as Partial<Record<FontRole, string>>,
  };
}
