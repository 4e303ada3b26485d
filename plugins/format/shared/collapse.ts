/**
 * turndown's `collapseWhitespace` (from collapse-whitespace by Luc Thevenard, MIT), run in place
 * before the conversion (convert.ts): runs of whitespace become one space, and spaces at block
 * edges go, except inside preformatted elements.
 */
import { BLOCK, CDATA, ELEMENT, type Marked, TEXT, VOID } from './turndown-nodes.ts';

/** turndown's `collapseWhitespace` (from collapse-whitespace by Luc Thevenard, MIT). */
export function collapseWhitespace(element: Marked, isPre: (node: Node) => boolean): void {
  if (!element.firstChild || isPre(element)) return;
  let prevText: Marked | null = null;
  let keepLeadingWs = false;
  let prev: Marked | null = null;
  let node = next(prev, element, isPre);
  while (node !== element) {
    if (node.nodeType === TEXT || node.nodeType === CDATA) {
      let text = node.data.replace(/[ \r\n\t]+/g, ' ');
      if ((!prevText || / $/.test(prevText.data)) && !keepLeadingWs && text[0] === ' ') text = text.substr(1);
      if (!text) {
        node = remove(node);
        continue;
      }
      node.data = text;
      prevText = node;
    } else if (node.nodeType === ELEMENT) {
      if (BLOCK.has(node.nodeName) || node.nodeName === 'BR') {
        if (prevText) prevText.data = prevText.data.replace(/ $/, '');
        prevText = null;
        keepLeadingWs = false;
      } else if (VOID.has(node.nodeName) || isPre(node)) {
        // avoid trimming space around non-block, non-BR void elements and inline PRE
        prevText = null;
        keepLeadingWs = true;
      } else if (prevText) keepLeadingWs = false;
    } else {
      node = remove(node);
      continue;
    }
    const nextNode = next(prev, node, isPre);
    prev = node;
    node = nextNode;
  }
  if (prevText) {
    prevText.data = prevText.data.replace(/ $/, '');
    if (!prevText.data) remove(prevText);
  }
}

function remove(node: Marked): Marked {
  const following = (node.nextSibling || node.parentNode) as unknown as Marked;
  node.parentNode!.removeChild(node);
  return following;
}

function next(prev: Marked | null, current: Marked, isPre: (node: Node) => boolean): Marked {
  if ((prev && (prev.parentNode as unknown) === current) || isPre(current))
    return (current.nextSibling || current.parentNode) as unknown as Marked;
  return (current.firstChild || current.nextSibling || current.parentNode) as unknown as Marked;
}
