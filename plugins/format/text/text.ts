/**
 * Text format: the content as plain text, one block per paragraph with a blank line between,
 * headings and list items on their own lines, `<pre>` keeping its line breaks.
 */
import { definePlugin, textOf } from '../../../core/kit.ts';
import type { PageDocument } from '../../../core/kit.ts';

export const textFormat = definePlugin({
  kind: 'format',
  name: 'text',
  description: 'Plain text of the content: blocks separated by a blank line.',
  provides: ['format:text'],
  setup: () => ({
    render: (doc: PageDocument) => (doc.root ? textOf(doc.root) : ''),
  }),
});
