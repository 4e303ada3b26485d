/**
 * What every document type shares: detection, the size check, running its `parse.ts` under the
 * type's time limit, turning failures into one 422 wording ("Could not read PDF: …"), and handing
 * the HTML and metadata to the pipeline. A type is its recogniser, its option schema and its
 * parser module.
 *
 * Parsers are third-party code fed hostile bytes. They run where the content stages run, in a
 * content worker, inside a limited section (core/workers/section.ts): the pool stops a parser that
 * hangs at the type's `timeoutMs` and one that crashes the thread (even from a callback no
 * try/catch reaches) by replacing the worker, and the request gets this type's 422 either way.
 */
import type { z } from 'zod';
import { definePlugin, withinLimit } from '../../../core/kit.ts';
import type { PageDocument, PluginApi } from '../../../core/kit.ts';
import { recognises, responseFileName, type DocumentKind } from './detect.ts';
import { formatBytes, unreadable, type BaseLimits } from './limits.ts';
import type { DocumentMetadata, DocumentParser, ParsedDocument } from './types.ts';

export interface DocumentTypeSpec<S extends z.ZodObject> {
  name: string;
  /** How messages name the type: "Could not read PDF: …". */
  label: string;
  description: string;
  kind: DocumentKind;
  options: S;
  /** The type's `parse.ts`, as `new URL('./parse.ts', import.meta.url).href`. */
  parserUrl: string;
  /** Facts about this response the parser needs besides the options (e.g. the declared charset). */
  context?(doc: PageDocument): Record<string, unknown>;
  /** What the type adds to the public interface (metadata fields, documentation). */
  api?: PluginApi;
}

/** Fields a document sets when it has them; the pipeline computes wordCount. */
function applyDocumentMetadata(doc: PageDocument, metadata: DocumentMetadata): void {
  for (const [key, value] of Object.entries(metadata)) {
    if (value !== undefined && value !== null && value !== '') (doc.metadata as unknown as Record<string, unknown>)[key] = value;
  }
  // A file without a title property is best known by its name.
  if (!doc.metadata.title) doc.metadata.title = responseFileName(doc) ?? '';
}

/** What a parser threw, worded for the user: a refusal as it is, anything else as a file it could not make sense of. */
function failureReason(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return err instanceof Error && err.name === 'DocumentRefusal' ? message : `the file is corrupt or unsupported (${message})`;
}

async function parseDocument(
  doc: PageDocument,
  spec: Pick<DocumentTypeSpec<z.ZodObject>, 'label' | 'parserUrl' | 'context'>,
  options: BaseLimits,
): Promise<ParsedDocument> {
  const body = doc.response?.body ?? new Uint8Array(0);
  if (body.byteLength > options.maxBytes) {
    throw unreadable(spec.label, `the file is ${formatBytes(body.byteLength)}, over the ${formatBytes(options.maxBytes)} limit`);
  }
  const { parse } = (await import(spec.parserUrl)) as { parse: DocumentParser<unknown> };
  const input = spec.context ? { ...options, ...spec.context(doc) } : options;
  const timeoutError = unreadable(spec.label, `parsing took longer than ${options.timeoutMs} ms`);
  const limits = { timeoutMs: options.timeoutMs, timeoutError, crashError: unreadable(spec.label, 'the parser {reason}') };
  return withinLimit(limits, async () => {
    try {
      return await parse(body, input);
    } catch (err) {
      throw unreadable(spec.label, failureReason(err));
    }
  });
}

export function defineDocumentPlugin<S extends z.ZodObject>(spec: DocumentTypeSpec<S>) {
  const id = `document.${spec.name}`;
  return definePlugin({
    kind: 'document',
    name: spec.name,
    description: spec.description,
    options: spec.options,
    api: spec.api,
    setup: (options) => ({
      detect: (doc: PageDocument) => recognises(doc, spec.kind),
      async parse(doc: PageDocument) {
        const parsed = await parseDocument(doc, spec, options as BaseLimits);
        doc.setContentHtml(parsed.html);
        applyDocumentMetadata(doc, parsed.metadata);
        for (const warning of parsed.warnings) doc.warn('detect', id, warning);
      },
    }),
  });
}
