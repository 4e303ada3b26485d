/**
 * The plugin API: `definePlugin` declares static metadata plus one `setup` closure that returns
 * the handler of the plugin's kind. `HandlersByKind` is the single place that says what each kind
 * must provide; adding a kind is one entry here plus its runner in the pipeline. The handler shapes
 * of the service-like kinds (llm, search, social, scanner) have files of their own (llm.ts, kinds/).
 */
import type { z } from 'zod';
import type { Logger } from 'pino';
import type { InjectionToken } from 'tsyringe';
import type { Page } from 'playwright-core';
import type { PageDocument } from './document.ts';
import type { Job } from './job.ts';
import type { ScrapeResult } from './model/result.ts';
import type { TrawlConfig } from './config-schema.ts';
import type { DeclaredUnit } from './costs.ts';
import type { LlmHandler } from './llm/provider.ts';
import type { SearchHandler } from './kinds/search.ts';
import type { SocialHandler } from './kinds/social.ts';
import type { ScannerHandler } from './kinds/scanner.ts';
import type { BlockerHandler } from './kinds/blocker.ts';

export type { JsonSchema, LlmAnswer, LlmHandler, LlmMessage, LlmRequest, LlmStatus, LlmUsage } from './llm/provider.ts';
export type { SearchAnswer, SearchHandler, SearchHit, SearchQuery, SearchStatus } from './kinds/search.ts';
export type {
  SocialAudiencePage,
  SocialFilters,
  SocialHandler,
  SocialPost,
  SocialPosts,
  SocialPostsQuery,
  SocialTargetKind,
  SocialUser,
} from './kinds/social.ts';
export type { ScanHit, ScanPosition, ScanResult, ScanSource, ScannerHandler } from './kinds/scanner.ts';
export type { BlockerHandler, BlockerInput, BlockKind, BlockVerdict } from './kinds/blocker.ts';

/** Runs before fetching: does this fetcher/source take the job? */
export interface FetcherHandler {
  matches(job: Job): boolean;
  /**
   * Fills `doc.response` (a source that builds its own page hands the markup over as
   * `response.builtHtml`: no DOM crosses to the content worker). Throws TrawlError('fetch_failed') on failure.
   */
  fetch(doc: PageDocument): Promise<void>;
  /**
   * On the server thread, after the plugin's `rerender` metadata asked to fetch a page again:
   * can it now (the browser: is Chromium there)? Default yes.
   */
  canRefetch?(): boolean;
  /** Runs the page's scripts as a browser does: `proxy: "auto"` retries a blocked page with it. */
  renders?: boolean;
}

export interface DocumentHandler {
  /** Recognises the fetched response (by media type, extension or magic bytes; sniffing may be async). */
  detect(doc: PageDocument): boolean | Promise<boolean>;
  /** Builds `doc.dom`/`doc.root` (via `setContentHtml` for non-HTML files) and metadata. */
  parse(doc: PageDocument): void | Promise<void>;
}

/**
 * How the caller's wire format names an internal request field (`includeSelectors[0]` →
 * `include_selectors[0]` for /v1), so messages about a request speak the caller's language.
 */
export type FieldNamer = (path: string) => string;

export interface TransformHandler {
  /** Rejects a request this transform cannot carry out (message becomes a 400), before anything is fetched. */
  validate?(job: Job, name: FieldNamer): string | null;
  /** Mutates `doc.root`/`doc.metadata`; decides by itself from `doc.job` whether it applies. */
  apply(doc: PageDocument): void | Promise<void>;
}

export interface FormatHandler {
  /** Rejects a job that asks for this format without what it needs (message becomes a 400). */
  validate?(job: Job, name: FieldNamer): string | null;
  /**
   * Runs after detect and before any transform, for the formats a job asks for: a format that reads
   * the page as fetched (every link, whatever main content or selectors later remove) takes what it
   * needs here and keeps it in the data bag for `render`. Runs where the DOM is, like `render`.
   */
  capture?(doc: PageDocument): void;
  /** Runs where the DOM is (a content worker): no services there. */
  render(doc: PageDocument): unknown | Promise<unknown>;
  /**
   * Runs on the server thread after the content stages, where services exist (a language model):
   * takes what `render` produced and returns the final output. A failure keeps `render`'s output
   * and becomes a warning. The job's signal and deadline apply.
   */
  complete?(output: unknown, doc: PageDocument): Promise<unknown>;
}

export interface ActionContext {
  /** Position of the action in the request's `actions`, for messages. */
  index: number;
  /** How long an action may wait for its selector or script (`plugins.fetcher.browser.actionTimeoutMs`). */
  timeoutMs: number;
}

/** What an action hands back to the result: a `jsResults` entry or a `screenshots` entry. */
export type ActionOutput = { jsResult: unknown } | { screenshot: Uint8Array };

/** A browser action, looked up by the `type` field of a request's action object. */
export interface ActionHandler<A extends { type: string } = { type: string }> {
  type: string;
  /** Validates one action object before anything runs (a strict object: unknown keys are refused). */
  schema: z.ZodType<A>;
  /** What it adds to the result; a failed `jsResult` action still holds its place in `jsResults` (as null). */
  yields?: 'jsResult' | 'screenshot';
  run(page: Page, action: A, ctx: ActionContext): Promise<ActionOutput | void>;
}

/** The enabled `action` plugins by the `type` value requests use. */
export interface ActionCatalog {
  find(type: string): ActionHandler | undefined;
  types(): string[];
}

export interface SinkHandler {
  write(doc: PageDocument, result: ScrapeResult): void | Promise<void>;
}

/** Kinds whose handler shape is settled by later issues stay open records until then. */
export interface HandlersByKind {
  fetcher: FetcherHandler;
  document: DocumentHandler;
  transform: TransformHandler;
  format: FormatHandler;
  sink: SinkHandler;
  action: ActionHandler;
  scanner: ScannerHandler;
  source: FetcherHandler;
  search: SearchHandler;
  llm: LlmHandler;
  social: SocialHandler;
  blocker: BlockerHandler;
}

export type PluginKind = keyof HandlersByKind;
export const PLUGIN_KINDS: readonly PluginKind[] = [
  'fetcher',
  'source',
  'document',
  'transform',
  'format',
  'sink',
  'action',
  'scanner',
  'search',
  'llm',
  'social',
  'blocker',
];

export interface PluginContext {
  logger: Logger;
  config: Readonly<TrawlConfig>;
  /** Core services (HTTP client, storage, …), resolved once during setup. */
  resolve<T>(token: InjectionToken<T>): T;
}

/**
 * What a plugin adds to the public interface, declared as metadata so wire formats and the OpenAPI
 * document can be built without importing plugin internals. Property names are the internal
 * camelCase ones; each wire format names them in its own style.
 */
/** A scrape request field a plugin provides (core/model/compose.ts joins them into the request schema). */
export interface RequestField {
  /** Validates the field; its description and default go into the OpenAPI document. */
  schema: z.ZodType;
  /**
   * Whether a request that sets the field (anything but unset, false or an empty list) needs
   * this plugin enabled: a 400 naming the plugin otherwise. Default true; false for a field that
   * only tunes what the plugin does when it runs anyway.
   */
  needsPlugin?: boolean;
}

export interface PluginApi {
  /** Scrape request fields this plugin provides, by internal (camelCase) name. */
  requestFields?: Readonly<Record<string, RequestField>>;
  /** JSON Schemas of result fields the plugin adds (screenshots, js results, …). */
  resultProperties?: Readonly<Record<string, unknown>>;
  /** JSON Schemas of metadata fields the plugin adds (page counts, video ids, …). */
  metadataProperties?: Readonly<Record<string, unknown>>;
  /** Named component schemas the properties above refer to. */
  schemas?: Readonly<Record<string, unknown>>;
  /** Decisions the interface leaves open, appended to the scrape endpoint's description. */
  description?: string;
}

export interface PluginDefinition<K extends PluginKind = PluginKind, O extends z.ZodType = z.ZodType> {
  kind: K;
  name: string;
  description: string;
  /** Options schema; the registry parses the config entry with it before calling setup. */
  options?: O;
  /** Plugin ids (`kind.name`) that must be enabled too. Checked at boot. */
  dependsOn?: readonly string[];
  /**
   * What the plugin offers the request validator: formats it renders (`format:markdown`),
   * capabilities a fetcher adds (`fetch:screenshot`), transforms a request can ask for
   * (`transform:main-content`).
   */
  provides?: readonly string[];
  /**
   * Formats only, cloud mode: the cost-table unit a scrape that asks for this format adds one of
   * (a language-model call), with its default price; `[credits]` gets the key. A feature declaring
   * the same unit must give it the same price.
   */
  cost?: DeclaredUnit & { unit: string };
  /** Transforms only: `pre` runs first, `post` last; same-order plugins run in list order. */
  order?: 'pre' | 'normal' | 'post';
  /** Request fields, result and metadata fields and their documentation this plugin contributes. */
  api?: PluginApi;
  /** Whether a default config with no entry for this plugin enables it. */
  enabledByDefault?: boolean;
  /**
   * Options the plugin cannot work without (a search provider's `url` or `apiKey`). Such a plugin
   * is enabled exactly when they are all set; `enabled = false` (or TRAWL_DISABLE) still turns it
   * off, and `enabled = true` without them stops the boot naming the missing key. The schema
   * declares them optional so that the plugin's table can exist without them.
   */
  enabledBy?: readonly string[];
  /**
   * Fetchers only: asked after detect when another fetcher produced the page, should this one
   * fetch it again (the browser says yes to an empty app shell)? Setup-free and pure, because it
   * runs where the DOM is — in a content worker, where no service exists.
   */
  rerender?(doc: PageDocument, options: z.output<O>): boolean;
  setup(options: z.output<O>, ctx: PluginContext): HandlersByKind[K] | Promise<HandlersByKind[K]>;
}

export type AnyPlugin = PluginDefinition<PluginKind, z.ZodType>;

// biome-ignore lint/complexity/noBannedTypes: zod writes the empty object shape as {}
export function definePlugin<K extends PluginKind, O extends z.ZodType = z.ZodObject<{}>>(
  definition: PluginDefinition<K, O>,
): PluginDefinition<K, O> {
  if (!/^[a-z][a-z0-9-]*$/.test(definition.name)) throw new Error(`Plugin name "${definition.name}" must be lower-case kebab-case`);
  return Object.freeze(definition);
}

export const pluginId = (p: { kind: string; name: string }) => `${p.kind}.${p.name}`;
