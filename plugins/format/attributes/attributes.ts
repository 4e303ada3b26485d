/**
 * attributes format: for each `{selector, attribute}` of the request's `attributeSelectors`, the
 * values of that attribute on every element the selector matches, in document order:
 *
 *   attributes: [{ selector, attribute, values: ["…", …] }, …]   (one entry per pair, in request order)
 *
 * Read from the page as served (a fresh parse of the response, like rawHtml), so cleaning,
 * selectors and main-content extraction hide nothing: `meta[itemprop=price]` or a hidden
 * input's `value` are still there. Elements without the attribute are skipped. URL attributes
 * (`href`, `src`, `srcset` …) come back absolute; every other value exactly as written. Asking
 * for the format without selectors, or with a selector that does not parse, is a 400.
 */
import { z } from 'zod';
import {
  absoluteSrcset,
  absoluteUrl,
  baseHref,
  baseUrlFrom,
  definePlugin,
  SELECTOR_LIMITS,
  TrawlError,
  validateSelectors,
} from '../../../core/kit.ts';
import type { FieldNamer, Job, PageDocument } from '../../../core/kit.ts';
import { servedPage } from '../shared/served.ts';

const PLUGIN_ID = 'format.attributes';
/** Enough for any real listing; a hostile page with a million matches must not make a million-entry answer. */
export const MAX_VALUES_PER_SELECTOR = 10_000;
const URL_ATTRIBUTES = new Set([
  'href',
  'src',
  'action',
  'formaction',
  'poster',
  'cite',
  'background',
  'longdesc',
  'data-src',
  'data-href',
]);

export interface AttributeValues {
  selector: string;
  attribute: string;
  values: string[];
}

export function attributeValue(el: Element, attribute: string, base: string): string | null {
  const value = el.getAttribute(attribute);
  if (value === null) return null;
  const name = attribute.toLowerCase();
  if (name === 'srcset' || name === 'data-srcset') return absoluteSrcset(value, base);
  if (URL_ATTRIBUTES.has(name) && !/^\s*(?:data|javascript):/i.test(value)) return absoluteUrl(value, base) ?? value;
  return value;
}

export function collectAttributes(
  scope: ParentNode,
  pairs: ReadonlyArray<{ selector: string; attribute: string }>,
  base: string,
): { results: AttributeValues[]; truncated: string[] } {
  const truncated: string[] = [];
  const results = pairs.map(({ selector, attribute }) => {
    const values: string[] = [];
    for (const el of scope.querySelectorAll(selector)) {
      const value = attributeValue(el, attribute, base);
      if (value === null) continue;
      if (values.length === MAX_VALUES_PER_SELECTOR) {
        truncated.push(selector);
        break;
      }
      values.push(value);
    }
    return { selector, attribute, values };
  });
  return { results, truncated };
}

export const attributesFormat = definePlugin({
  kind: 'format',
  name: 'attributes',
  description: 'Attribute values by CSS selector (attribute_selectors), read from the page as served; URL attributes made absolute.',
  provides: ['format:attributes'],
  api: {
    requestFields: {
      attributeSelectors: {
        schema: z
          .array(z.strictObject({ selector: z.string().trim().min(1), attribute: z.string().trim().min(1) }))
          .max(SELECTOR_LIMITS.count, `at most ${SELECTOR_LIMITS.count} selectors`)
          .optional(),
      },
    },
  },
  setup: () => {
    return {
      validate(job: Job, name: FieldNamer): string | null {
        const pairs = job.request.attributeSelectors;
        if (!pairs?.length) return `Format "attributes" requires ${name('attributeSelectors')}: a list of {selector, attribute}`;
        try {
          validateSelectors(
            name('attributeSelectors'),
            pairs.map((p) => p.selector),
          );
        } catch (err) {
          if (err instanceof TrawlError) return err.message;
          throw err;
        }
        return null;
      },
      render(doc: PageDocument): AttributeValues[] {
        const pairs = doc.job.request.attributeSelectors ?? [];
        const page = servedPage(doc) ?? doc.root;
        if (!page) return pairs.map(({ selector, attribute }) => ({ selector, attribute, values: [] }));
        const base = baseUrlFrom(baseHref(doc.dom), doc.baseUrl);
        const { results, truncated } = collectAttributes(page, pairs, base);
        for (const selector of truncated)
          doc.warn(
            'format',
            PLUGIN_ID,
            `attribute_selectors "${selector}" matched more than ${MAX_VALUES_PER_SELECTOR} values; the rest are left out`,
          );
        return results;
      },
    };
  },
});
