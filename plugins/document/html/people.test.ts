// Author-name cleaning and joining.
import { expect, test } from 'bun:test';
import { cleanPersonName, joinNames } from './people.ts';

test.each([
  ['Jane Doe', 'Jane Doe'],
  ['  By   Jane\n Doe ', 'Jane Doe'],
  ['Written by: Jane Doe', 'Jane Doe'],
  ['Posted by Jane Doe on March 5, 2024', 'Jane Doe'],
  ['Jane Doe | Staff writer', 'Jane Doe'],
  ['Jane Doe — updated 2 hours ago', 'Jane Doe'],
  ['Jean-Luc Picard', 'Jean-Luc Picard'],
  ['Author: Jane Doe', 'Jane Doe'],
  ['Von Anna Schmidt', 'Anna Schmidt'],
])('%p → %p', (raw, name) => {
  expect(cleanPersonName(raw)).toBe(name);
});

test.each([
  'https://www.facebook.com/jane',
  '//example.com/authors/jane',
  '@janedoe',
  '12345',
  '',
  'Jane has been writing about food, travel and the odd recipe for the best part of twenty years.',
])('not a name: %p', (raw) => {
  expect(cleanPersonName(raw)).toBeNull();
});

test('joins several authors once each, in order', () => {
  expect(joinNames(['Jane Doe', 'By Tom Roe', 'Jane Doe', null, 'https://x.example/a'])).toBe('Jane Doe, Tom Roe');
  expect(joinNames([null, ''])).toBeNull();
});

test('date lines are not names', () => {
  expect(cleanPersonName('Sun Dec 17, 2023 11:23 am')).toBeNull();
  expect(cleanPersonName('Personal finance January 31, 2025')).toBeNull();
  expect(cleanPersonName('By | Jane Doe')).toBe('Jane Doe');
});
