// The page fields that cross to a content worker: every field of a PageDocument is carried or
// named as staying, and what is carried arrives equal after a structured clone (the pool's copy).
import { expect, test } from 'bun:test';
import { FETCHER_ID, SCREENSHOT } from './data-bag.ts';
import { PageDocument } from './document.ts';
import { createJob } from './job.ts';
import { INBOUND, OUTBOUND, pack, STAYS, unpack } from './page-transfer.ts';

function freshDoc(): PageDocument {
  return new PageDocument(createJob({ url: 'https://example.com/', formats: ['markdown'] } as never, 'ws', new AbortController().signal));
}

/** A document with a distinctive value in every field that can cross. */
function filledDoc(): PageDocument {
  const doc = freshDoc();
  doc.type = 'document.html';
  doc.metadata = { ...doc.metadata, title: 'A title', statusCode: 203, language: 'nl' };
  doc.outputs.markdown = '# Heading';
  doc.outputs.links = ['https://example.com/a'];
  doc.actions = { screenshots: ['iVBOR'], scrapes: [], javascriptReturns: [], pdfs: [] } as never;
  doc.screenshot = 'iVBORw0KGgo=';
  doc.data.set(FETCHER_ID, 'fetcher.http');
  doc.data.set(SCREENSHOT, 'c2hvdA==');
  doc.messages.push({ level: 'warning', stage: 'fetch', plugin: 'fetcher.http', message: 'slow' });
  doc.timings.fetch = 12;
  return doc;
}

test('every field of a page document is carried one way or both, or named as staying', () => {
  const fields = Object.keys(freshDoc()).sort();
  const accounted = [...new Set([...Object.keys(INBOUND), ...Object.keys(OUTBOUND), ...Object.keys(STAYS)])].sort();
  // A field added to PageDocument and to no table fails here: declare whether it crosses.
  expect(accounted).toEqual(fields);
  for (const name of Object.keys(STAYS)) {
    expect(name in INBOUND || name in OUTBOUND).toBe(false);
  }
});

for (const [direction, table] of [
  ['inbound', INBOUND],
  ['outbound', OUTBOUND],
] as const) {
  test(`what crosses ${direction} arrives equal after a structured clone`, () => {
    const sent = filledDoc();
    const received = freshDoc();
    unpack(table, received, structuredClone(pack(table, sent)));
    for (const name of Object.keys(table)) {
      const read = (table as Record<string, { read(doc: PageDocument): unknown }>)[name]!.read;
      expect({ [name]: read(received) }).toEqual({ [name]: read(sent) });
    }
    // Fields the table does not carry keep the receiver's own values.
    if (!('screenshot' in table)) expect(received.screenshot).toBeNull();
    if (!('outputs' in table)) expect(received.outputs).toEqual({});
  });
}

test('collections other code holds on to are filled in place', () => {
  const received = freshDoc();
  const { messages, timings, outputs } = received;
  unpack(OUTBOUND, received, structuredClone(pack(OUTBOUND, filledDoc())));
  expect(received.messages).toBe(messages);
  expect(received.timings).toBe(timings);
  expect(received.outputs).toBe(outputs);
  expect(messages).toHaveLength(1);
});
