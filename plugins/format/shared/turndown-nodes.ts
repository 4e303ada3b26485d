/**
 * What turndown knows of nodes, for the in-place conversion (convert.ts): its block, void and
 * meaningful-when-blank element lists, the node types it tells apart, and the facts it writes on
 * each node it converts.
 */

export const BLOCK = new Set([
  'ADDRESS',
  'ARTICLE',
  'ASIDE',
  'AUDIO',
  'BLOCKQUOTE',
  'BODY',
  'CANVAS',
  'CENTER',
  'DD',
  'DIR',
  'DIV',
  'DL',
  'DT',
  'FIELDSET',
  'FIGCAPTION',
  'FIGURE',
  'FOOTER',
  'FORM',
  'FRAMESET',
  'H1',
  'H2',
  'H3',
  'H4',
  'H5',
  'H6',
  'HEADER',
  'HGROUP',
  'HR',
  'HTML',
  'ISINDEX',
  'LI',
  'MAIN',
  'MENU',
  'NAV',
  'NOFRAMES',
  'NOSCRIPT',
  'OL',
  'OUTPUT',
  'P',
  'PRE',
  'SECTION',
  'TABLE',
  'TBODY',
  'TD',
  'TFOOT',
  'TH',
  'THEAD',
  'TR',
  'UL',
]);
export const VOID = new Set([
  'AREA',
  'BASE',
  'BR',
  'COL',
  'COMMAND',
  'EMBED',
  'HR',
  'IMG',
  'INPUT',
  'KEYGEN',
  'LINK',
  'META',
  'PARAM',
  'SOURCE',
  'TRACK',
  'WBR',
]);
const MEANINGFUL_WHEN_BLANK = new Set(['A', 'TABLE', 'THEAD', 'TBODY', 'TFOOT', 'TH', 'TD', 'IFRAME', 'SCRIPT', 'AUDIO', 'VIDEO']);
/** An element holding one of these is never blank. */
export const NOT_BLANK_INSIDE = new Set([...VOID, ...MEANINGFUL_WHEN_BLANK]);

/** The facts turndown's `Node` writes on each converted node (its rules read them). */
export type Marked = Node &
  Record<symbol, any> & {
    isBlock?: boolean;
    isCode?: boolean;
    isBlank?: boolean;
    flankingWhitespace?: { leading: string; trailing: string };
    data: string;
  };

export const ELEMENT = 1;
export const ATTRIBUTE = 2;
export const TEXT = 3;
export const CDATA = 4;
