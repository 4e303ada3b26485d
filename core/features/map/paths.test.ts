// The map's path filter: whole segments, a file standing for its directory, `/` for everything.
import { describe, expect, test } from 'bun:test';
import { basePath, pathBase, pathFilter } from './paths.ts';

describe('pathBase', () => {
  test('a directory with or without its slash, a file as its directory, the root as everything', () => {
    expect(pathBase('/docs/')).toEqual(['docs']);
    expect(pathBase('/docs')).toEqual(['docs']);
    expect(pathBase('/docs/index.html')).toEqual(['docs']);
    expect(pathBase('/docs/v1.2/')).toEqual(['docs', 'v1.2']);
    expect(pathBase('/.well-known')).toEqual(['.well-known']);
    expect(pathBase('/about.html')).toEqual([]);
    expect(pathBase('/')).toEqual([]);
    expect(pathBase('')).toEqual([]);
    expect(basePath(pathBase('/docs/guide/index.html'))).toBe('/docs/guide/');
    expect(basePath([])).toBe('/');
  });
});

describe('pathFilter', () => {
  test('keeps the base itself and what is below it, by whole segments', () => {
    const under = pathFilter([pathBase('/docs')]);
    expect(['/docs', '/docs/', '/docs/intro', '/docs/a/b.html'].map(under)).toEqual([true, true, true, true]);
    expect(['/docsearch', '/', '/blog/docs', '/Docs/intro'].map(under)).toEqual([false, false, false, false]);
  });

  test('escapes are compared decoded; any of several bases; the root keeps everything', () => {
    expect(pathFilter([pathBase('/caf%C3%A9/')])('/caf%c3%a9/menu')).toBe(true);
    const either = pathFilter([pathBase('/docs/'), pathBase('/documentation/')]);
    expect(['/docs/x', '/documentation/x', '/blog/x'].map(either)).toEqual([true, true, false]);
    expect(pathFilter([pathBase('/docs/'), pathBase('/')])('/blog/x')).toBe(true);
  });
});
