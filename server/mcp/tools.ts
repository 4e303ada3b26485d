/**
 * The MCP tools: each names the API route it runs and how its answer reads as markdown. A tool's
 * arguments are the route's JSON body (its input schema is the route's zod schema, so a tool cannot
 * drift from the endpoint) or, for a route without a body, its path and query parameters. Adding a
 * tool is one entry here.
 */
import { z } from 'zod';
import { watchFeature } from '../../core/features/watch/index.ts';
import type { Method, RouteEnv } from '../route.ts';
import { watchSchemas } from '../routes/v1/watch.ts';

export interface McpTool {
  name: string;
  title: string;
  description: string;
  method: Method;
  /** The route's path as mounted (`/v1/crawl/:id`). */
  path: string;
  /** Arguments of a route without a body: `:name` fills the path, the rest goes to the query string. */
  params?: z.ZodObject;
  /** The body's schema of a route that reads its body itself (no `input` declared). */
  body?(env: RouteEnv): z.ZodType;
  /** The answer as an agent reads it. */
  markdown(answer: Record<string, any>): string;
}

type Answer = Record<string, any>;

const titled = (page: Answer) => `# ${page.metadata?.title || page.url || 'Untitled page'}\n\nSource: ${page.url ?? page.metadata?.final_url ?? ''}`;
/** A page's best text: markdown, else plain text, else the answer as JSON. */
const pageText = (page: Answer) => page.markdown ?? page.text ?? page.llm ?? json(page);
const json = (value: unknown) => `\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\``;
const warnings = (answer: Answer) => (answer.warnings?.length ? `\n\nWarnings:\n${answer.warnings.map((w: string) => `- ${w}`).join('\n')}` : '');

function runPages(answer: Answer): string {
  const head = `${answer.id ? `Run ${answer.id}: ` : ''}${answer.status}, ${answer.completed ?? 0} completed, ${answer.failed ?? 0} failed of ${answer.total ?? 0}` +
    `${answer.error ? ` (error: ${answer.error})` : ''}${answer.next ? `\nMore results: page ${new URL(answer.next, 'http://x').searchParams.get('page')}` : ''}`;
  const pages = (answer.data ?? []).map((page: Answer) => (page.error ? `## ${page.url}\n\nFailed: ${page.error}` : `${titled(page).replace(/^# /, '## ')}\n\n${pageText(page)}`));
  return [head, ...pages].join('\n\n');
}

const runStarted = (kind: string) => (answer: Answer) =>
  `${kind} ${answer.id} started (status ${answer.status}). Call ${kind === 'Crawl' ? 'crawl_status' : 'batch_status'} with this id for its progress and pages.`;

const paging = {
  page: z.number().int().min(1).optional().describe('Page of results, from 1.'),
  per_page: z.number().int().min(1).max(100).optional().describe('Results per page.'),
};

const watchLine = (watch: Answer) =>
  `- ${watch.name} (${watch.url}), id ${watch.id}: every ${watch.interval_minutes} min, ${watch.active ? 'active' : 'paused'}` +
  `${watch.last_changed_at ? `, last changed ${watch.last_changed_at}` : ''}${watch.last_error ? `, last error: ${watch.last_error}` : ''}`;

const runStatus = (kind: 'crawl' | 'batch') => ({
  method: 'GET' as const,
  path: `/v1/${kind}/:id`,
  params: z.object({
    id: z.string().min(1).max(100).describe(`The ${kind} id the ${kind === 'crawl' ? 'crawl' : 'batch_scrape'} tool answered.`),
    ...paging,
  }),
  markdown: runPages,
});

export const mcpTools: readonly McpTool[] = [
  {
    name: 'scrape', title: 'Scrape a page', method: 'POST', path: '/v1/scrape',
    description: 'Fetch one URL (HTML, rendered app, PDF, DOCX, XLSX, CSV) and return its content in the requested formats (markdown by default) with its metadata.',
    markdown: (page) => `${titled(page)}\n\n${pageText(page)}${warnings(page)}`,
  },
  {
    name: 'batch_scrape', title: 'Scrape many pages', method: 'POST', path: '/v1/batch',
    description: 'Scrape a list of URLs as one asynchronous job; answers its id at once. Poll batch_status for the results.',
    markdown: runStarted('Batch'),
  },
  { name: 'batch_status', title: 'Batch progress and results', description: 'Status, counts and one page of results of a batch_scrape job.', ...runStatus('batch') },
  {
    name: 'crawl', title: 'Crawl a site', method: 'POST', path: '/v1/crawl',
    description: 'Start crawling a site from a URL (scope, depth and limits as options); answers the crawl id at once. Poll crawl_status for progress and pages.',
    markdown: runStarted('Crawl'),
  },
  { name: 'crawl_status', title: 'Crawl progress and pages', description: 'Status, counts and one page of scraped pages of a crawl.', ...runStatus('crawl') },
  {
    name: 'map', title: 'List the URLs of a site', method: 'POST', path: '/v1/map',
    description: 'List the URLs of a site from its sitemaps, feeds and start page, without scraping them.',
    markdown: (answer) => `${answer.links.map((link: Answer) => `- ${link.title ? `[${link.title}](${link.url})` : link.url}`).join('\n') || 'No links found.'}${warnings(answer)}`,
  },
  {
    name: 'search', title: 'Search the web', method: 'POST', path: '/v1/search',
    description: 'Search the web through the configured providers and scrape each result page.',
    markdown: (answer) => [
      `Results for "${answer.query}" (${answer.provider}):`,
      ...answer.results.map((hit: Answer) => `## ${hit.position}. ${hit.title}\n\n${hit.url}\n\n${hit.error ? `Not scraped: ${hit.error}` : hit.markdown ?? hit.text ?? hit.description}`),
    ].join('\n\n') + warnings(answer),
  },
  {
    name: 'extract', title: 'Extract structured data', method: 'POST', path: '/v1/extract',
    description: 'Scrape a page and extract structured data from it with the configured language model, following a JSON schema or a prompt.',
    markdown: (answer) => `Data extracted from ${answer.url}:\n\n${json(answer.data)}${warnings(answer)}`,
  },
  {
    name: 'summarize', title: 'Summarize a page', method: 'POST', path: '/v1/summarize',
    description: 'Scrape a page and summarize it (with the configured language model, or its most central sentences without one).',
    markdown: (answer) => `Summary of ${answer.url} (${answer.method}):\n\n${answer.summary}${warnings(answer)}`,
  },
  {
    name: 'watch_create', title: 'Watch a page for changes', method: 'POST', path: '/v1/watch',
    description: 'Check a page on a schedule and record each change (optionally notifying a webhook). Answers the watch; its snapshots and diffs are at /v1/watch/{id}.',
    body: (env) => watchSchemas(watchFeature.settings(env.config)).create,
    markdown: (watch) => `Watching ${watch.url} every ${watch.interval_minutes} minutes (watch ${watch.id}).`,
  },
  {
    name: 'watch_list', title: 'List watches', method: 'GET', path: '/v1/watch',
    description: 'The workspace\'s watches: URL, interval, state, when they last changed, their last error.',
    params: z.object(paging),
    markdown: (answer) => (answer.watches.length ? `${answer.watches.map(watchLine).join('\n')}\n\n${answer.total} watch(es).` : 'No watches.'),
  },
];
