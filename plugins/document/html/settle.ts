/**
 * What a browser would have done to a freshly parsed page before anyone reads it: streamed React
 * segments moved into their placeholders, and doubly encoded UTF-8 repaired. Run once per parse,
 * by the HTML document plugin after each of its parses (parse.ts).
 */
import { mayHoldMojibake, repairMojibake } from './mojibake.ts';
import { placeStreamedContent } from './streaming.ts';

/** `markup` is what `dom` was parsed from. */
export function settleParsedPage(dom: Document, markup: string): void {
  placeStreamedContent(dom);
  if (dom.body && mayHoldMojibake(markup)) repairMojibake(dom.body);
}
