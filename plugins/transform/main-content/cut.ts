/**
 * Cutting the content at a line: everything from the line to the end of the content parts goes,
 * as a closing list of other stories does (newsrows.ts).
 */
import type { Line } from './lines.ts';
import { visibleLength } from './walk.ts';

/**
 * Removes everything from `line` to the end of `parts`: the block the line opens, what follows it
 * at every level up to its part, and the later parts' children (pictures and all, not only text).
 */
export function cutFrom(line: Line, parts: readonly Element[]): void {
  const node = line.nodes[0];
  if (!node) return;
  const at = parts.findIndex((p) => p.contains(node));
  if (at < 0) return;
  const part = parts[at]!;
  let lead: Node = node;
  // (climb while the line starts its block, a row's picture aside: the row's wrapper, the list's box)
  for (let p = lead.parentNode; p && p !== part && !textBefore(lead); p = p.parentNode) lead = p;
  const out: Node[] = [];
  for (let n: Node | null = lead; n && n !== part; n = n.parentNode) {
    if (n === lead) out.push(n);
    for (let s = n.nextSibling; s; s = s.nextSibling) out.push(s);
  }
  for (const n of out) n.parentNode?.removeChild(n);
  for (const later of parts.slice(at + 1)) while (later.firstChild) later.removeChild(later.firstChild);
}

/** Is there visible text before `n` among its siblings? */
function textBefore(n: Node): boolean {
  for (let s = n.previousSibling; s; s = s.previousSibling) if (visibleLength(s.textContent ?? '') > 0) return true;
  return false;
}
