/** Path globs: the same answers as picomatch on ordinary input, linear work on hostile input. */
import { describe, expect, test } from 'bun:test';
import picomatch from 'picomatch';
import { expandBraces, GlobSet, globProblem } from './globs.ts';

const PATTERNS = [
  '/blog/**',
  '/blog/*',
  '/docs/*.html',
  '/**/x',
  '**/x',
  '/a/**/b',
  '/a?c',
  '/x/[a-c]*',
  '/x/[!a-c]',
  '/a/b*',
  '/*',
  '/{blog,news}/**',
  '/a/{b,c{d,e}}/f',
  '/a\\*b',
  '/a.b',
  '/*/*/*',
  '/release-*-notes',
  '/**',
];
const PATHS = [
  '/',
  '/blog',
  '/blog/',
  '/blog/a',
  '/blog/a/b',
  '/docs/x.html',
  '/docs/x.htm',
  '/docs/a/x.html',
  '/x',
  '/a/x',
  '/a/b/x',
  '/a/b',
  '/a/q/b',
  '/a/q/r/b',
  '/abc',
  '/a/c',
  '/x/b',
  '/x/bz',
  '/x/d',
  '/x/',
  '/a/bee',
  '/a/b/c',
  '/news/1',
  '/a/b/f',
  '/a/ce/f',
  '/a/cd/f',
  '/a/c/f',
  '/a*b',
  '/axb',
  '/a.b',
  '/aab',
  '/1/2/3',
  '/1/2',
  '/release-2-notes',
  '/release--notes',
];

describe('same answers as picomatch', () => {
  for (const pattern of PATTERNS) {
    test(pattern, () => {
      const ours = new GlobSet([pattern]);
      const theirs = picomatch(pattern, { dot: true });
      for (const path of PATHS) expect([path, ours.matches(path)]).toEqual([path, theirs(path)]);
    });
  }
});

test('braces expand, nested, with a cap', () => {
  expect(expandBraces('/a/{b,c{d,e}}/f')).toEqual(['/a/b/f', '/a/cd/f', '/a/ce/f']);
  expect(expandBraces('/no-braces')).toEqual(['/no-braces']);
  expect(expandBraces('/{single}')).toEqual(['/{single}']);
  expect(() => expandBraces('/{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}')).toThrow('more than 32 alternatives');
});

test('extglobs and negation are refused with a reason; ordinary globs are fine', () => {
  expect(globProblem('/+(a|b)')).toContain('is not supported');
  expect(globProblem('!/private/**')).toContain('negation is not supported');
  expect(globProblem('/blog/**')).toBeNull();
});

test('hostile patterns and paths finish: work is path length × pattern size', () => {
  const stars = new GlobSet(['/*a*a*a*a*a*a*a*a*x']);
  expect(stars.matches(`/${'a'.repeat(4000)}`)).toBe(false);
  expect(stars.matches(`/${'a'.repeat(4000)}x`)).toBe(true);
  const globstars = new GlobSet(['/**/a/**/a/**/a/**/a/**/x']);
  expect(globstars.matches(`/${'a/'.repeat(2000)}`)).toBe(false);
  expect(globstars.cost('/abc')).toBe(4 * globstars.size);
});
