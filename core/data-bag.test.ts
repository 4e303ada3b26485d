// The typed data bag: a value comes back through the key that stored it, typed, and through no other.
import { expect, test } from 'bun:test';
import { DataBag, dataKey } from './data-bag.ts';

test('values are stored and read by key identity, typed by the key', () => {
  const bag = new DataBag();
  const COUNT = dataKey<number>('test.count');
  const SAME_NAME = dataKey<number>('test.count');
  expect(bag.get(COUNT)).toBeUndefined();
  expect(bag.has(COUNT)).toBe(false);
  bag.set(COUNT, 3);
  const count: number | undefined = bag.get(COUNT);
  expect(count).toBe(3);
  expect(bag.has(COUNT)).toBe(true);
  // a key made elsewhere with the same name is another key: shared keys are declared once, in core
  expect(bag.get(SAME_NAME)).toBeUndefined();
  // @ts-expect-error a value of the wrong type does not go in
  bag.set(COUNT, 'three');
});
