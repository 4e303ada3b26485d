/**
 * What a document parser hands back: the content as HTML (the pipeline's one intermediate form),
 * the metadata it found, and warnings for the result.
 */

export interface DocumentMetadata {
  title?: string | null;
  author?: string | null;
  description?: string | null;
  /** ISO 8601. */
  publishedDate?: string | null;
  language?: string | null;
  /** Type-specific fields of core's Metadata, such as `pageCount`, `sheetCount`, `rowCount`. */
  [extra: string]: string | number | null | undefined;
}

export interface ParsedDocument {
  /** Body content: headings, paragraphs, lists, tables. */
  html: string;
  metadata: DocumentMetadata;
  /** Limits that cut the output short, recovered problems: shown in the result's `warnings`. */
  warnings: string[];
}

/** The contract of every `parse.ts` module (shared/plugin.ts runs it under the type's limits). */
export type DocumentParser<O> = (bytes: Uint8Array, options: O) => Promise<ParsedDocument>;

/**
 * Thrown by a parser for a file it will not read; the message finishes the sentence
 * "Could not read PDF: …" (e.g. "the file is encrypted and needs a password").
 */
export class DocumentRefusal extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'DocumentRefusal';
  }
}
