/**
 * The plugin kit: everything a plugin may take from core, and the only core module a plugin
 * imports (its tests add core/testing.ts). Named `kit.ts` rather than `index.ts` because it is the
 * door for plugins, not core's whole public face: the server and the CLI keep importing the
 * modules they need, and a plugin that reaches for something not listed here has to add it here,
 * where a reviewer sees core's surface grow. A module re-exported with `*` is wholly meant for
 * plugins (the plugin contract, DOM and URL helpers, provider HTTP); from the others only the
 * names plugins use. No core file imports this one, so it cannot close an import circle.
 * test/structure/plugin-imports.test.ts keeps plugins to it.
 */

// The plugin contract: definePlugin, the handler shape of every kind, the context setup receives.
export * from './plugin.ts';
export * from './kinds/blocker.ts';
export { quotaSpent } from './kinds/social.ts';
export { TrawlError, asTrawlError, configInvalid, fetchFailed } from './errors.ts';
export { Tokens } from './tokens.ts';
export type { BrowserPool, BrowserRequestFailure, BrowserSession, HttpClient, ResultStore, Storage } from './services.ts';

// The page a plugin works on, its job and the result it feeds.
export { PageDocument, emptyMetadata } from './document.ts';
export type { Metadata } from './document.ts';
export type { FetchedResponse } from './net/response.ts';
export type { Job } from './job.ts';
export { browserNeeds } from './model/request.ts';
export { PAGE_TYPES } from './model/result.ts';
export type { Extraction, PageType, ScrapeResult } from './model/result.ts';
export type { LeadFacts, LeadPageKind, Organization, PostalAddress } from './model/organization.ts';
export type { BrandFacts } from './model/brand.ts';
export { RESULT_ID, SCHEMA_TYPES, SCREENSHOT, SERVED_HTML, dataKey } from './data-bag.ts';
export { fetchProxy } from './fetch-attempts.ts';
export { responseText } from './response-text.ts';
export { SELECTOR_LIMITS, validateSelectors } from './selectors.ts';
export { withinLimit, withinLimitSync } from './workers/section.ts';
export { createResultStore, optionsHash } from './storage/results.ts';

// Reading and building HTML.
export * from './dom.ts';
export * from './dom-links.ts';
export * from './html-builder.ts';
export * from './json-ld.ts';
export * from './microdata.ts';
export { isDateOnly } from './date-words.ts';
export { sentencesOf, termsOf } from './sentences.ts';

// URLs and HTTP: the shared client's helpers and the calls to a provider's API.
export * from './net/url.ts';
export * from './net/srcset.ts';
export * from './net/provider-http.ts';
export { charsetFromContentType, decodeText } from './net/charset.ts';
export { isTextual, mediaTypeOf } from './net/http-support.ts';
export { parseSitemapDocument, sitemapText } from './net/feeds.ts';

// The language model and the engines on it, for the formats that ask a model.
export { LlmTokens } from './llm/tokens.ts';
export type { LlmService } from './llm/service.ts';
export { checkedSchema } from './llm/schema.ts';
export { EXTRACT_CREDITS, extractPrompt } from './llm/extract/request.ts';
export type { ExtractService } from './llm/extract/service.ts';
export { extractiveSummary } from './llm/summarize/service.ts';
export type { SummarizeService } from './llm/summarize/service.ts';
export { SUMMARIZE_CREDITS, SUMMARY_LENGTHS } from './llm/summarize/request.ts';

// The browser: actions and screenshots.
export * from './browser/actions.ts';
export * from './browser/screenshot.ts';
