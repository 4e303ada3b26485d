/**
 * Which fields of a PageDocument cross to a content worker and back, declared once. Each carried
 * field says how it is read on the sending thread and written on the receiving one; the message
 * types, the packing and the unpacking are all derived from these two tables, so a field carried
 * one way cannot be forgotten in one of the places that used to list it. Fields that never cross
 * are named in `STAYS` with the reason, and a test checks that every field of a PageDocument is in
 * exactly one of the three.
 */
import { SHARED_KEYS } from './data-bag.ts';
import type { PageDocument } from './document.ts';

/** One carried field: what the sender reads off its document, and how the receiver takes it. */
interface CarriedField<T> {
  read(doc: PageDocument): T;
  write(doc: PageDocument, value: T): void;
}

function carried<T>(read: (doc: PageDocument) => T, write: (doc: PageDocument, value: T) => void): CarriedField<T> {
  return { read, write };
}

const type = carried(
  (doc) => doc.type,
  (doc, value) => (doc.type = value),
);
const metadata = carried(
  (doc) => doc.metadata,
  (doc, value) => (doc.metadata = value),
);
// The read-only collections are filled in place: other holders keep a reference to them.
const messages = carried(
  (doc) => doc.messages,
  (doc, value) => void doc.messages.splice(0, doc.messages.length, ...value),
);
const timings = carried(
  (doc) => doc.timings,
  (doc, value) => void Object.assign(doc.timings, value),
);
const outputs = carried(
  (doc) => doc.outputs,
  (doc, value) => void Object.assign(doc.outputs, value),
);
// Only the data-bag entries declared shared cross; the rest are private to one thread.
const data = carried(
  (doc) => doc.data.entries(SHARED_KEYS),
  (doc, value) => doc.data.restore(SHARED_KEYS, value),
);
const actions = carried(
  (doc) => doc.actions,
  (doc, value) => (doc.actions = value),
);
const screenshot = carried(
  (doc) => doc.screenshot,
  (doc, value) => (doc.screenshot = value),
);

/** To the worker: what fetching collected. */
export const INBOUND = { metadata, messages, timings, data, actions, screenshot };

/** Back from the worker: what the content stages made. */
export const OUTBOUND = { type, metadata, outputs, messages, timings, data };

/** Fields that never cross, and why. */
export const STAYS: Readonly<Record<string, string>> = {
  job: 'rebuilt in the worker from the request, workspace and deadline (its signal cannot cross)',
  response: 'sent apart, its body transferred rather than copied (content-task.ts contentInput)',
  dom: 'the worker builds the DOM and drops it: no DOM crosses either way',
  root: 'part of the DOM, which does not cross',
};

type FieldTable = Record<string, CarriedField<any>>;

/** The message shape a table gives: each field's value as read. */
export type Packed<Table extends FieldTable> = { [K in keyof Table]: ReturnType<Table[K]['read']> };

/** Reads a table's fields off a document, for the thread boundary. */
export function pack<Table extends FieldTable>(table: Table, doc: PageDocument): Packed<Table> {
  const packed: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(table)) packed[name] = field.read(doc);
  return packed as Packed<Table>;
}

/** Writes what `pack` sent onto the receiving thread's document. */
export function unpack<Table extends FieldTable>(table: Table, doc: PageDocument, packed: Packed<Table>): void {
  for (const [name, field] of Object.entries(table)) field.write(doc, packed[name]);
}
