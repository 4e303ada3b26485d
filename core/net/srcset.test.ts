/** srcset parsing, serialising, the largest candidate and resolution against a base. */
import { expect, test } from 'bun:test';
import { absoluteSrcset, largestCandidate, parseSrcset, serializeSrcset } from './srcset.ts';

test('srcset parsing keeps commas inside URLs and reads descriptors', () => {
  const candidates = parseSrcset(' a.jpg 1x,b,c.jpg 2x , https://i.example/w_100,h_50/d.jpg 300w, e.jpg');
  expect(candidates).toEqual([
    { url: 'a.jpg', descriptor: '1x' },
    { url: 'b,c.jpg', descriptor: '2x' },
    { url: 'https://i.example/w_100,h_50/d.jpg', descriptor: '300w' },
    { url: 'e.jpg', descriptor: '' },
  ]);
  expect(largestCandidate(candidates)?.url).toBe('https://i.example/w_100,h_50/d.jpg');
  expect(serializeSrcset(candidates.slice(0, 2))).toBe('a.jpg 1x, b,c.jpg 2x');
  expect(largestCandidate(parseSrcset(''))).toBeNull();
});

test('absoluteSrcset makes every candidate absolute and keeps descriptors', () => {
  expect(absoluteSrcset('a.jpg 1x, /b,c.jpg 2x, http://[bad 3x', 'https://x.example/p/')).toBe(
    'https://x.example/p/a.jpg 1x, https://x.example/b,c.jpg 2x, http://[bad 3x',
  );
});
