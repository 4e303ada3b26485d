/**
 * The limits every document parser runs under, as option schemas the plugins share (so the
 * names, defaults and descriptions are the same for every type), and the helpers that word a
 * refused file.
 */
import { z } from 'zod';
import { TrawlError } from '../../../core/kit.ts';

export const MiB = 1024 * 1024;

export function formatBytes(bytes: number): string {
  if (bytes >= MiB) return `${Math.round((bytes / MiB) * 10) / 10} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} bytes`;
}

const count = (max: number) => z.number().int().min(1).max(max);

/** Size and time limits every document type has. */
export function baseLimits(defaults: { maxBytes: number; timeoutMs?: number }) {
  return {
    maxBytes: count(1024 * MiB)
      .default(defaults.maxBytes)
      .describe('Files larger than this many bytes are refused with 422.'),
    timeoutMs: count(600_000)
      .default(defaults.timeoutMs ?? 30_000)
      .describe('Parsing runs in a content worker that is stopped (and replaced) after this many milliseconds (422).'),
  };
}

/**
 * The widest table a sheet or CSV file becomes. Width multiplies every row's cost: a file of a few
 * MB with 300,000 columns would otherwise become millions of table cells in the DOM.
 */
export const maxColumnsOption = (defaults: number) =>
  count(16_384).default(defaults).describe('Columns shown at most; a wider table is cut there, with a note and a warning.');

/** The zip-bomb guard's limits for DOCX and XLSX (checked before any zip library reads the file). */
export function zipLimits(defaults: { maxEntries: number; maxDecompressedBytes: number; maxCompressionRatio: number }) {
  return {
    maxEntries: count(1_000_000).default(defaults.maxEntries).describe('Most entries the zip container may have.'),
    maxDecompressedBytes: count(4096 * MiB)
      .default(defaults.maxDecompressedBytes)
      .describe('Most bytes the zip container may expand to, in total.'),
    maxCompressionRatio: count(100_000)
      .default(defaults.maxCompressionRatio)
      .describe('Highest compression ratio allowed for an entry of 1 MB or more.'),
  };
}

export type BaseLimits = { maxBytes: number; timeoutMs: number };

/** The 422 every refused or unreadable document becomes: "Could not read PDF: <reason>". */
export function unreadable(label: string, reason: string): TrawlError {
  const bounded = reason.length > 300 ? `${reason.slice(0, 297)}…` : reason;
  return new TrawlError('unprocessable', `Could not read ${label}: ${bounded}`);
}
