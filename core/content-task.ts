/**
 * The content stages as a worker-pool task. In: the internal request, the workspace, the deadline,
 * the fetched response (body bytes transferred, not copied; UTF-8 text decoded again in the worker)
 * and the page fields page-transfer.ts declares inbound. Back: the fields it declares outbound and
 * a rerender request. No DOM crosses either way; the worker builds and drops it.
 *
 * A worker boots once, as the pool's per-worker `init` (BOOT_TASK): it gets the frozen config and
 * where the plugin list lives (a module URL the server hands in: core never imports plugins),
 * imports the list and sets up only document, transform, format and scanner plugins, which need no
 * services. Then it runs one PageDocument per task, and the config never crosses again.
 */
import type { Logger } from 'pino';
import type { TrawlConfig } from './config-schema.ts';
import { runContentStages } from './content-stages.ts';
import { PageDocument } from './document.ts';
import type { FetchedResponse } from './net/response.ts';
import { createJob, type Job } from './job.ts';
import { createLogger } from './logger.ts';
import { decodeUtf8 } from './net/charset.ts';
import type { ScrapeRequest } from './model/request.ts';
import { INBOUND, OUTBOUND, pack, unpack, type Packed } from './page-transfer.ts';
import type { AnyPlugin, PluginKind } from './plugin.ts';
import { PluginRegistry } from './registry.ts';
import { task, type TaskContext } from './workers/pool.ts';

/** Where the plugin list is: `export const <name>: AnyPlugin[]` of `module`. */
export interface PluginListRef {
  module: string;
  name: string;
}

/** What a content worker boots from, once. */
export interface BootInput {
  plugins: PluginListRef;
  config: Readonly<TrawlConfig>;
}

export interface ContentInput {
  request: ScrapeRequest;
  workspace: string;
  /** Epoch ms; the pool kills the worker then, this only lets plugins see it coming. */
  deadline: number;
  response: FetchedResponse;
  page: Packed<typeof INBOUND>;
  /** The page was fetched again after a rerender request: do not ask twice. */
  refetched: boolean;
  /** `response.text` was left out because it is the body read as UTF-8: the worker decodes it. */
  utf8Text: boolean;
}

export interface ContentOutput {
  page: Packed<typeof OUTBOUND>;
  rerender?: string;
}

/** The kinds a content worker sets up (scanners: endpoint discovery parses untrusted JavaScript there). */
export const CONTENT_KINDS: readonly PluginKind[] = ['document', 'transform', 'format', 'scanner'];

export const CONTENT_TASK = task<typeof run>(import.meta.url, 'run');

/**
 * The input for a fetched document, and the buffers to transfer. A body that is a view into a
 * larger buffer is copied first: transferring would hand the worker (and take from us) the rest.
 */
export function contentInput(doc: PageDocument, refetched: boolean): { input: ContentInput; transfer: ArrayBuffer[] } {
  const source = doc.response!;
  // Copied as property descriptors, so a text left to decode on first read (textOnFirstRead) is
  // not decoded here. UTF-8 text is dropped: the worker decodes the same text (a BOM dropped alike).
  const response = Object.defineProperties({}, Object.getOwnPropertyDescriptors(source)) as FetchedResponse;
  const text = Object.getOwnPropertyDescriptor(source, 'text');
  const utf8Text = source.charset === 'utf-8' && (text?.get !== undefined || text?.value !== undefined);
  if (utf8Text) delete response.text;
  const { body } = source;
  const whole = body.byteOffset === 0 && body.byteLength === body.buffer.byteLength && body.buffer instanceof ArrayBuffer;
  response.body = whole ? body : body.slice();
  const input: ContentInput = {
    request: doc.job.request as ScrapeRequest,
    workspace: doc.job.workspace,
    deadline: doc.job.deadline,
    response,
    page: pack(INBOUND, doc),
    refetched,
    utf8Text,
  };
  return { input, transfer: [response.body.buffer as ArrayBuffer] };
}

/** Puts what the worker produced onto the server thread's PageDocument. */
export function applyContentOutput(doc: PageDocument, output: ContentOutput): void {
  unpack(OUTBOUND, doc, output.page);
}

interface Booted {
  registry: PluginRegistry;
  logger: Logger;
}

let booted: Booted | undefined;

/** The per-worker setup (the pool's `init`): the plugin list imported and set up from the config. */
export async function boot(input: BootInput): Promise<void> {
  const module = (await import(input.plugins.module)) as Record<string, unknown>;
  const list = module[input.plugins.name];
  if (!Array.isArray(list)) throw new Error(`${input.plugins.module} exports no plugin list "${input.plugins.name}"`);
  const registry = new PluginRegistry(list as AnyPlugin[], input.config);
  const logger = createLogger(input.config.log.level, undefined, input.config.log.format).child({ component: 'content-worker' });
  await registry.setup(
    (plugin) => ({
      logger: logger.child({ plugin: plugin.id }),
      config: input.config,
      resolve: () => {
        throw new Error(
          `${plugin.id} asked for a service in a content worker, where there are none (document, transform and format plugins must work without)`,
        );
      },
    }),
    CONTENT_KINDS,
  );
  booted = { registry, logger };
}

export const BOOT_TASK = task<typeof boot>(import.meta.url, 'boot');

/** The registry this worker booted, for other content tasks (ContentRunner.task). */
export function bootedRegistry(): PluginRegistry {
  if (!booted) throw new Error('the content worker was not booted (the pool runs BOOT_TASK as its init)');
  return booted.registry;
}

function jobOf(input: ContentInput): Job {
  const left = input.deadline - Date.now();
  const signal = Number.isFinite(left) ? AbortSignal.timeout(Math.max(0, left)) : new AbortController().signal;
  return createJob(input.request, input.workspace, signal, input.deadline);
}

/** The task: one fetched document through the content stages. */
export async function run(input: ContentInput, ctx: TaskContext): Promise<ContentOutput> {
  if (!booted) throw new Error('the content worker was not booted (the pool runs BOOT_TASK as its init)');
  const { registry, logger } = booted;
  const doc = new PageDocument(jobOf(input));
  doc.response = input.response;
  if (input.utf8Text) doc.response.text = decodeUtf8(input.response.body);
  unpack(INBOUND, doc, input.page);
  const { rerender } = await runContentStages(doc, registry, logger, { refetched: input.refetched, checkpoint: () => ctx.checkMemory() });
  return { page: pack(OUTBOUND, doc), ...(rerender ? { rerender } : {}) };
}
