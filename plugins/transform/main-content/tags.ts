/** Tag sets shared by the extractor's modules. */

/** Block-level tags: text directly inside one of these forms its own paragraph. */
export const BLOCK = new Set([
  'ADDRESS', 'ARTICLE', 'ASIDE', 'BLOCKQUOTE', 'BODY', 'CENTER', 'DD', 'DETAILS', 'DIALOG', 'DIV', 'DL', 'DT', 'FIELDSET',
  'FIGCAPTION', 'FIGURE', 'FOOTER', 'FORM', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'HEADER', 'HGROUP', 'HR', 'HTML', 'LI',
  'MAIN', 'MENU', 'NAV', 'OL', 'P', 'PRE', 'SECTION', 'SUMMARY', 'TABLE', 'TBODY', 'TD', 'TFOOT', 'TH', 'THEAD', 'TR', 'UL',
  'CAPTION', 'NOSCRIPT',
]);

/** Never content: removed before anything is measured (buttons too, as Readability does: their
 * labels are "Save this event", "Add to cart", "Share" … measured on the dev set, dropping all of
 * them beats keeping long ones). */
export const JUNK = new Set([
  'BUTTON', 'SCRIPT', 'STYLE', 'TEMPLATE', 'SVG', 'IFRAME', 'OBJECT', 'EMBED', 'CANVAS', 'LINK', 'META', 'INPUT',
  'SELECT', 'TEXTAREA', 'OPTION', 'DATALIST', 'DIALOG', 'MAP', 'AUDIO', 'VIDEO', 'SOURCE', 'TRACK', 'APPLET', 'HEAD',
  'TITLE', 'BASE', 'PARAM', 'FRAME', 'FRAMESET', 'MATH-FIELD',
]);

export const HEADINGS = new Set(['H1', 'H2', 'H3', 'H4', 'H5', 'H6']);

/** Elements worth keeping even when they hold little text (content structure, media). */
export const STRUCTURE = new Set(['PRE', 'CODE', 'TABLE', 'BLOCKQUOTE', 'FIGURE', 'IMG', 'PICTURE', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6']);
