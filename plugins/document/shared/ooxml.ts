/**
 * Reading the XML parts of Office Open XML files (DOCX, XLSX) safely, and the document
 * properties they share: `docProps/core.xml` holds title, creator, subject/description, created
 * date and language as Dublin Core elements.
 */
import { XMLParser, type X2jOptions } from 'fast-xml-parser';
import type { ZipArchive } from './zip.ts';
import type { DocumentMetadata } from './types.ts';

const MAX_PART_BYTES = 4 * 1024 * 1024;

/**
 * A small XML part parsed into objects, or null when it is missing, oversized or unreadable.
 * These parts never need a DTD; one here is only a way to smuggle entity expansion in.
 */
export function readXmlPart(archive: ZipArchive, name: string, options: Partial<X2jOptions> = {}): Record<string, unknown> | null {
  const entry = archive.entries.find((e) => e.name === name);
  if (!entry || entry.size > MAX_PART_BYTES) return null;
  const xml = archive.readText(name) ?? '';
  if (/<!DOCTYPE/i.test(xml)) return null;
  try {
    return new XMLParser({ removeNSPrefix: true, parseTagValue: false, ...options }).parse(xml) as Record<string, unknown>;
  } catch {
    return null;
  }
}

const text = (value: unknown): string | null => {
  const s = typeof value === 'string' || typeof value === 'number' ? String(value).replace(/\s+/g, ' ').trim() : '';
  return s || null;
};

/** An ISO 8601 date, or null for a missing or unreadable one. */
function isoDate(value: unknown): string | null {
  const s = text(value);
  if (!s) return null;
  const date = new Date(s);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

export function coreProperties(archive: ZipArchive): DocumentMetadata {
  const parsed = readXmlPart(archive, 'docProps/core.xml', { ignoreAttributes: true });
  const props = (parsed?.coreProperties ?? {}) as Record<string, unknown>;
  return {
    title: text(props.title),
    author: text(props.creator),
    description: text(props.description) ?? text(props.subject),
    publishedDate: isoDate(props.created),
    language: text(props.language),
    keywords: text(props.keywords),
  };
}
