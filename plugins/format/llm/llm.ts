/**
 * llm format: the content as text for a language model, built from the same markdown the
 * markdown format renders and then put through LLM_STEPS, eleven small pure steps that each
 * cut tokens without dropping words (images, emphasis, inline URLs and duplicate link targets,
 * escapes, table rule rows, typographic quotes, wordless lines, stat fragments, whitespace).
 * The result is
 *
 *   URL: <final URL>
 *   Title: <title>
 *
 *   <content>
 *
 *   Links:
 *   <text>: <target>
 *
 * `bun run bench llm-tokens` measures the whole pipeline and each step on the dev set.
 */
import { definePlugin } from '../../../core/kit.ts';
import type { PageDocument } from '../../../core/kit.ts';
import { contentMarkdown, createTurndown } from '../shared/markdown.ts';
import { dedupeLinks, extractLinks, linksSection, shortenLinks, type LlmLink } from './link-steps.ts';
import {
  asciiQuotes,
  collapseWhitespace,
  compactTables,
  dropEmptyLines,
  mergeStats,
  removeEmphasis,
  stripImages,
  unescapeMarkdown,
} from './text-steps.ts';

export interface LlmDraft {
  /** The page the header names; links on its origin are shortened against it. */
  readonly pageUrl: string;
  readonly body: string;
  readonly links: readonly LlmLink[];
}

export interface LlmStep {
  name: string;
  run(draft: LlmDraft): LlmDraft;
}

const onBody = (name: string, fn: (markdown: string) => string): LlmStep => ({ name, run: (d) => ({ ...d, body: fn(d.body) }) });
/** A step on the words of the body and of the link texts, which keep their markdown until then. */
const onText = (name: string, fn: (markdown: string) => string): LlmStep => ({
  name,
  run: (d) => ({ ...d, body: fn(d.body), links: d.links.map((l) => ({ ...l, text: fn(l.text) })) }),
});
const onLinks = (name: string, fn: (links: readonly LlmLink[], pageUrl: string) => LlmLink[]): LlmStep => ({
  name,
  run: (d) => ({ ...d, links: fn(d.links, d.pageUrl) }),
});

/**
 * In order: images first, then links (their URLs hold underscores that would pass for emphasis
 * markers), emphasis in the text and in the link texts, whitespace last.
 */
export const LLM_STEPS: readonly LlmStep[] = [
  onBody('strip-images', stripImages),
  {
    name: 'links-to-text',
    run: (d) => {
      const { body, links } = extractLinks(d.body);
      return { ...d, body, links: [...d.links, ...links] };
    },
  },
  onText('remove-emphasis', removeEmphasis),
  onLinks('dedupe-links', dedupeLinks),
  onLinks('shorten-links', shortenLinks),
  onText('unescape', unescapeMarkdown),
  onBody('compact-tables', compactTables),
  onText('ascii-quotes', asciiQuotes),
  onBody('drop-empty-lines', dropEmptyLines),
  onBody('merge-stats', mergeStats),
  onBody('collapse-whitespace', collapseWhitespace),
];

export interface LlmInput {
  url: string;
  title: string;
  markdown: string;
}

/** The llm text of a page from its markdown; `steps` defaults to the full pipeline (the benchmark ablates it). */
export function llmFromMarkdown(input: LlmInput, steps: readonly LlmStep[] = LLM_STEPS): string {
  const draft = steps.reduce((d, step) => step.run(d), { pageUrl: input.url, body: input.markdown, links: [] } as LlmDraft);
  const header = [`URL: ${input.url}`, input.title.trim() ? `Title: ${input.title.replace(/\s+/g, ' ').trim()}` : '']
    .filter(Boolean)
    .join('\n');
  return [header, draft.body.trim(), linksSection(draft.links)].filter(Boolean).join('\n\n');
}

export function renderLlm(doc: PageDocument, service = createTurndown()): string {
  return llmFromMarkdown({ url: doc.baseUrl, title: doc.metadata.title, markdown: contentMarkdown(doc, service) });
}

export const llmFormat = definePlugin({
  kind: 'format',
  name: 'llm',
  description:
    'Text for language models: a URL and title header, the content with images, emphasis, escapes and duplicate links stripped, then a links section.',
  provides: ['format:llm'],
  setup: () => {
    const service = createTurndown();
    return { render: (doc: PageDocument) => renderLlm(doc, service) };
  },
});
