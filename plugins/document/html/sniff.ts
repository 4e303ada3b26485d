/**
 * Content sniffing for responses served as text/plain or without a type: the WHATWG MIME
 * Sniffing list of tags that identify HTML at the start of a resource.
 */

const HTML_SIGNATURES = [
  '<!doctype html',
  '<html',
  '<head',
  '<script',
  '<iframe',
  '<h1',
  '<div',
  '<font',
  '<table',
  '<a',
  '<style',
  '<title',
  '<b',
  '<body',
  '<br',
  '<p',
  '<!--',
];

export function looksLikeHtml(text: string): boolean {
  const start = text
    .slice(0, 512)
    .replace(/^\uFEFF/, '')
    .trimStart()
    .slice(0, 32)
    .toLowerCase();
  // The tag must end there ("<b>" or "<b " is HTML; "<bogus" is not).
  return HTML_SIGNATURES.some((signature) => start.startsWith(signature) && /^[\s>]/.test(start.slice(signature.length)));
}
