/**
 * The MCP tools: each names the API route it runs and how its answer reads as markdown. A tool's
 * arguments are the route's JSON body (its input schema is the route's zod schema, so a tool cannot
 * drift from the endpoint) or, for a route without a body, its path and query parameters. Adding a
 * tool is one entry here.
 */
import { z } from 'zod';
import { watchFeature } from '../../core/features/watch/index.ts';
import type { Method, RouteEnv } from '../route.ts';
import { watchSchemas } from '../wire/v1/watch.ts';
import {
  type Answer,
  audienceMarkdown,
  brandMarkdown,
  diffMarkdown,
  endpointsMarkdown,
  json,
  leadBatchMarkdown,
  leadMarkdown,
  monitorLine,
  moreAt,
  pageText,
  runPages,
  runStarted,
  titled,
  warnings,
  watchLine,
} from './markdown.ts';

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

/** The API's paging rule (server/pagination.ts); an answer's `next` gives the following offset. */
const paging = {
  limit: z.number().int().min(1).max(100).optional().describe('Items per answer (default 20).'),
  offset: z
    .number()
    .int()
    .min(0)
    .max(100_000_000)
    .optional()
    .describe("Items to skip (default 0); a previous answer's `next` names the following offset."),
};

const runStatus = (kind: 'crawl' | 'batch') => ({
  method: 'GET' as const,
  path: `/v1/${kind}/:id`,
  params: z.object({
    id: z
      .string()
      .min(1)
      .max(100)
      .describe(`The ${kind} id the ${kind === 'crawl' ? 'crawl' : 'batch_scrape'} tool answered.`),
    ...paging,
  }),
  markdown: runPages,
});

export const mcpTools: readonly McpTool[] = [
  {
    name: 'scrape',
    title: 'Scrape a page',
    method: 'POST',
    path: '/v1/scrape',
    description:
      'Fetch one URL (HTML, rendered app, PDF, DOCX, XLSX, CSV) and return its content in the requested formats (markdown by default) with its metadata.',
    markdown: (page) => `${titled(page)}\n\n${pageText(page)}${warnings(page)}`,
  },
  {
    name: 'batch_scrape',
    title: 'Scrape many pages',
    method: 'POST',
    path: '/v1/batch',
    description: 'Scrape a list of URLs as one asynchronous job; answers its id at once. Poll batch_status for the results.',
    markdown: runStarted('Batch', 'batch_status'),
  },
  {
    name: 'batch_status',
    title: 'Batch progress and results',
    description: 'Status, counts and one page of results of a batch_scrape job.',
    ...runStatus('batch'),
  },
  {
    name: 'crawl',
    title: 'Crawl a site',
    method: 'POST',
    path: '/v1/crawl',
    description:
      'Start crawling a site from a URL (scope, depth and limits as options); answers the crawl id at once. Poll crawl_status for progress and pages.',
    markdown: runStarted('Crawl', 'crawl_status'),
  },
  {
    name: 'crawl_status',
    title: 'Crawl progress and pages',
    description: 'Status, counts and one page of scraped pages of a crawl.',
    ...runStatus('crawl'),
  },
  {
    name: 'map',
    title: 'List the URLs of a site',
    method: 'POST',
    path: '/v1/map',
    description: 'List the URLs of a site from its sitemaps, feeds and start page, without scraping them.',
    markdown: (answer) =>
      `${answer.links.map((link: Answer) => `- ${link.title ? `[${link.title}](${link.url})` : link.url}`).join('\n') || 'No links found.'}${warnings(answer)}`,
  },
  {
    name: 'search',
    title: 'Search the web',
    method: 'POST',
    path: '/v1/search',
    description: 'Search the web through the configured providers and scrape each result page.',
    markdown: (answer) =>
      [
        `Results for "${answer.query}" (${answer.provider}):`,
        ...answer.results.map(
          (hit: Answer) =>
            `## ${hit.position}. ${hit.title}\n\n${hit.url}\n\n${hit.error ? `Not scraped: ${hit.error}` : (hit.markdown ?? hit.text ?? hit.description)}`,
        ),
      ].join('\n\n') + warnings(answer),
  },
  {
    name: 'extract',
    title: 'Extract structured data',
    method: 'POST',
    path: '/v1/extract',
    description:
      'Scrape a page and extract structured data from it with the configured language model, following a JSON schema or a prompt.',
    markdown: (answer) => `Data extracted from ${answer.url}:\n\n${json(answer.data)}${warnings(answer)}`,
  },
  {
    name: 'summarize',
    title: 'Summarize a page',
    method: 'POST',
    path: '/v1/summarize',
    description: 'Scrape a page and summarize it (with the configured language model, or its most central sentences without one).',
    markdown: (answer) => `Summary of ${answer.url} (${answer.method}):\n\n${answer.summary}${warnings(answer)}`,
  },
  {
    name: 'watch_create',
    title: 'Watch a page for changes',
    method: 'POST',
    path: '/v1/watch',
    description:
      'Check a page on a schedule and record each change; filters and conditions say what matters, `notify` where to be told (chat webhooks, mailto:, https). Answers the watch; its snapshots and diffs are at /v1/watch/{id}.',
    body: (env) => watchSchemas(watchFeature.settings(env.config)).create,
    markdown: (watch) => `Watching ${watch.url} every ${watch.interval_minutes} minutes (watch ${watch.id}).`,
  },
  {
    name: 'diff',
    title: 'What changed on a page',
    method: 'POST',
    path: '/v1/diff',
    description:
      "Scrape a page afresh and compare it with `previous` text, or with the workspace's last stored scrape of the URL: status (new, same, changed), a summary and a unified diff.",
    markdown: diffMarkdown,
  },
  {
    name: 'lead',
    title: 'Company lead from a site',
    method: 'POST',
    path: '/v1/lead',
    description:
      "Read a company's site (the page and its contact, imprint, about and team pages): name, description, address, e-mails, phones and social profiles.",
    markdown: leadMarkdown,
  },
  {
    name: 'lead_batch',
    title: 'Leads for many sites',
    method: 'POST',
    path: '/v1/lead/batch',
    description: 'Read 1 to 25 company sites as one asynchronous job; answers its id at once. Poll lead_batch_status for the leads.',
    markdown: runStarted('Lead batch', 'lead_batch_status'),
  },
  {
    name: 'lead_batch_status',
    title: 'Lead batch progress and leads',
    method: 'GET',
    path: '/v1/lead/batch/:id',
    description: "Status, counts and each site's lead or error of a lead_batch job.",
    params: z.object({ id: z.string().min(1).max(100).describe('The batch id the lead_batch tool answered.') }),
    markdown: leadBatchMarkdown,
  },
  {
    name: 'brand',
    title: 'Brand profile of a site',
    method: 'POST',
    path: '/v1/brand',
    description: "A site's brand identity: name, logo, favicon, colours by role, colour scheme, fonts by role, images and social profiles.",
    markdown: brandMarkdown,
  },
  {
    name: 'endpoints',
    title: "API endpoints in a page's JavaScript",
    method: 'POST',
    path: '/v1/endpoints',
    description:
      "Static analysis of a page's inline scripts and linked bundles: the request targets (paths, URLs, GraphQL and WebSocket endpoints) they name.",
    markdown: endpointsMarkdown,
  },
  {
    name: 'social_monitor_create',
    title: 'Monitor a social feed',
    method: 'POST',
    path: '/v1/social/monitors',
    description:
      'Check an X profile, search, list or reply thread on a schedule and record (optionally post to a webhook) the new posts that match. Beta; needs a configured social source.',
    markdown: (monitor) =>
      `Monitoring ${monitor.kind} ${monitor.target} every ${monitor.interval_minutes} minutes (monitor ${monitor.id}).`,
  },
  {
    name: 'social_monitor_list',
    title: 'List social monitors',
    method: 'GET',
    path: '/v1/social/monitors',
    description: "The workspace's social monitors: target, interval, state, when they last checked and matched, their last error.",
    params: z.object(paging),
    markdown: (answer) =>
      answer.monitors.length
        ? `${answer.monitors.map(monitorLine).join('\n')}\n\n${answer.total} monitor(s).${moreAt(answer)}`
        : 'No social monitors.',
  },
  {
    name: 'social_audience',
    title: 'Followers or followings of an account',
    method: 'POST',
    path: '/v1/social/audience',
    description:
      'Export the followers (or the accounts followed) of an X account, a page of up to 1,000 at a time; `next_cursor` continues. Beta; needs a configured social source.',
    markdown: audienceMarkdown,
  },
  {
    name: 'watch_list',
    title: 'List watches',
    method: 'GET',
    path: '/v1/watch',
    description: "The workspace's watches: URL, interval, state, when they last changed, their last error.",
    params: z.object(paging),
    markdown: (answer) =>
      answer.watches.length ? `${answer.watches.map(watchLine).join('\n')}\n\n${answer.total} watch(es).${moreAt(answer)}` : 'No watches.',
  },
];
