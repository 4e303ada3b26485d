/**
 * The page as the server sent it, parsed afresh: formats that read what cleaning, selectors and
 * main content remove (attribute values, JSON-LD, `<link>` and `<style>` of the head, navigation
 * and footers) read this instead of `doc.root`.
 */
import { parseHtmlDocument, responseText, SERVED_HTML } from '../../../core/kit.ts';
import type { DomDocument, PageDocument } from '../../../core/kit.ts';

/** Documents that are not HTML (PDF, DOCX …) offer only the HTML built from them. */
export function servedPage(doc: PageDocument): DomDocument | null {
  // the markup the document plugin read (cut at its element limit), so a huge page is not parsed whole here
  if (doc.type === 'document.html' && doc.response) return parseHtmlDocument(doc.data.get(SERVED_HTML) ?? responseText(doc.response));
  return doc.dom;
}
