import { expect, test } from 'bun:test';
import { unpackSourceMap } from './source-map.ts';

const source = (map: unknown) => ({
  type: 'source-map' as const,
  text: typeof map === 'string' ? map : JSON.stringify(map),
  name: 'main.js',
  url: 'https://site.test/main.js.map',
  pageUrl: 'https://site.test/',
});

test("hands the app's original files to the JavaScript scanners, leaving out libraries, the bundler runtime and non-scripts", () => {
  const result = unpackSourceMap(
    source({
      version: 3,
      sources: [
        'webpack://app/./src/api.ts',
        'webpack://app/./node_modules/axios/index.js',
        'webpack://app/webpack/bootstrap',
        'webpack://app/./src/App.vue',
        'webpack://app/./src/styles.css',
        'webpack://app/./src/empty.js',
      ],
      sourcesContent: ['fetch("/api/a")', 'fetch("/lib")', 'runtime', '<script>fetch("/api/b")</script>', 'body{}', null],
      mappings: '',
    }),
    100,
  )!;
  expect(result.hits).toEqual([]);
  expect(result.sources!.map((s) => [s.type, s.name, s.text])).toEqual([
    ['javascript', 'main.js', 'fetch("/api/a")'],
    ['javascript', 'main.js', '<script>fetch("/api/b")</script>'],
  ]);
});

test('a map without embedded sources says so; one that is not a map is declined', () => {
  expect(unpackSourceMap(source({ version: 3, sources: ['a.js'], mappings: '' }), 100)).toEqual({
    hits: [],
    warnings: ['main.js: the source map embeds no sources'],
  });
  expect(unpackSourceMap(source('not json'), 100)).toBeNull();
  expect(unpackSourceMap(source({ hello: 'world' }), 100)).toBeNull();
  // The XSSI guard some servers put before JSON is allowed.
  expect(
    unpackSourceMap(source(`)]}'\n${JSON.stringify({ version: 3, sources: ['a.js'], sourcesContent: ['x'] })}`), 100)!.sources,
  ).toHaveLength(1);
});
