/**
 * Reads stylesheets for a brand: custom properties (`--brand-primary: #0a66c2`) and the colour and
 * font declarations of the rules that set a site's look (the page, links, buttons, headings, code),
 * parsed with css-tree. Values stay text; palette.ts and fonts.ts decide what they mean. Media
 * queries are read as if they matched (a dark-mode block is told apart by its selector or query).
 */
import { generate, parse, walk, type CssNode } from 'css-tree';

export interface Declaration {
  selector: string;
  property: string;
  value: string;
  /** Inside `@media (prefers-color-scheme: dark)` or a dark-theme selector. */
  dark: boolean;
}

export interface CssFacts {
  /** Custom properties by name (`--primary`) as the default scheme sets them (dark-scheme blocks left out). */
  variables: Map<string, string>;
  declarations: Declaration[];
  /** Families declared with `@font-face`. */
  fontFaces: string[];
}

const PROPERTIES = new Set(['color', 'background', 'background-color', 'font-family', 'font', 'border-color', 'fill']);
const DARK_SELECTOR = /\.dark\b|\[data-theme=["']?dark|\[data-mode=["']?dark|\.theme-dark\b/i;
const MAX_DECLARATIONS = 20_000;

export function emptyCssFacts(): CssFacts {
  return { variables: new Map(), declarations: [], fontFaces: [] };
}

/** Adds what `css` declares to `into` (several stylesheets make one set of facts). */
export function readCss(css: string, into: CssFacts = emptyCssFacts()): CssFacts {
  let ast: CssNode;
  try {
    ast = parse(css, { parseValue: false, parseCustomProperty: false, parseAtrulePrelude: true, onParseError: () => {} });
  } catch {
    return into;
  }
  const darkRules = new Set<CssNode>();
  walk(ast, {
    visit: 'Atrule',
    enter(node) {
      if (node.name === 'media' && node.prelude && /prefers-color-scheme\s*:\s*dark/i.test(generate(node.prelude)) && node.block) {
        walk(node.block, { visit: 'Rule', enter: (rule) => void darkRules.add(rule) });
      }
      if (node.name === 'font-face' && node.block) {
        walk(node.block, {
          visit: 'Declaration',
          enter(d) {
            if (d.property === 'font-family') into.fontFaces.push(valueText(d.value).replace(/^["']|["']$/g, ''));
          },
        });
      }
    },
  });
  walk(ast, {
    visit: 'Rule',
    enter(rule) {
      if (rule.block.children.isEmpty || into.declarations.length >= MAX_DECLARATIONS) return;
      const selector = generate(rule.prelude);
      const dark = darkRules.has(rule) || DARK_SELECTOR.test(selector);
      rule.block.children.forEach((node) => {
        if (node.type !== 'Declaration') return;
        const value = valueText(node.value);
        if (node.property.startsWith('--')) {
          // the palette is the default scheme's; later declarations win, as in the cascade
          if (!dark) into.variables.set(node.property, value);
        } else if (PROPERTIES.has(node.property.toLowerCase())) {
          into.declarations.push({ selector, property: node.property.toLowerCase(), value, dark });
        }
      });
    },
  });
  return into;
}

function valueText(value: CssNode): string {
  return (value.type === 'Raw' ? value.value : generate(value)).replace(/\s*!important\s*$/i, '').trim();
}

/** `var(--a, #fff)` resolved through the custom properties (a few levels; cycles end as null). */
export function resolveVariables(value: string, variables: ReadonlyMap<string, string>, depth = 0): string | null {
  if (depth > 8) return null;
  if (!value.includes('var(')) return value;
  const replaced = value.replace(/var\(\s*(--[\w-]+)\s*(?:,\s*([^()]*(?:\([^()]*\))?[^()]*))?\)/g, (_, name: string, fallback?: string) => {
    const found = variables.get(name);
    return (found !== undefined ? resolveVariables(found, variables, depth + 1) : null) ?? fallback?.trim() ?? '';
  });
  return replaced.trim() ? resolveVariables(replaced, variables, depth + 1) : null;
}
