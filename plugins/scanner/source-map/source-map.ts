/**
 * scanner.source-map: a bundle's source map (`//# sourceMappingURL=…`, revision 3) unpacked into the
 * original files it embeds (`sourcesContent`), which the JavaScript scanners then read under the
 * bundle's name: there the code has its own names (`apiClient.get(USERS_URL)`), its constants and
 * its comments, where the bundle has minified ones. Library code (`node_modules/`, the bundler's
 * runtime) is left out: its URLs are the library's, not the app's.
 */
import { z } from 'zod';
import { definePlugin } from '../../../core/kit.ts';
import type { ScanResult, ScanSource } from '../../../core/kit.ts';

const options = z.strictObject({
  maxSources: z.number().int().positive().default(2000).describe('Original files read from one map at most.'),
});

const LIBRARY =
  /(?:^|[/\\])(?:node_modules|bower_components|\(webpack\)|webpack\/(?:bootstrap|runtime))(?:[/\\]|$)|^webpack\/(?:bootstrap|runtime)|\bvite\/(?:modulepreload|preload-helper)/;
/** Files a JavaScript scanner can read (the tolerant parser takes TypeScript and single-file components' scripts as well as it can). */
const SCRIPT_FILE = /\.(?:[cm]?[jt]sx?|vue|svelte)(?:\?.*)?$|^[^.]*$/i;

export function unpackSourceMap(source: ScanSource, maxSources: number): ScanResult | null {
  let map: unknown;
  try {
    map = JSON.parse(source.text.replace(/^\)\]\}'[^\n]*\n/, ''));
  } catch {
    return null;
  }
  const { sources, sourcesContent } = (map ?? {}) as { sources?: unknown; sourcesContent?: unknown };
  if (!Array.isArray(sources)) return null;
  if (!Array.isArray(sourcesContent)) return { hits: [], warnings: [`${source.name}: the source map embeds no sources`] };
  const found: ScanSource[] = [];
  sources.forEach((path, i) => {
    const content = sourcesContent[i];
    if (typeof path !== 'string' || typeof content !== 'string' || LIBRARY.test(path) || !SCRIPT_FILE.test(path)) return;
    if (found.length < maxSources)
      found.push({ type: 'javascript', text: content, name: source.name, url: source.url, pageUrl: source.pageUrl });
  });
  const skipped = sources.length - found.length;
  return {
    hits: [],
    sources: found,
    ...(found.length === maxSources && skipped > 0
      ? { warnings: [`${source.name}: read ${maxSources} original files of its source map`] }
      : {}),
  };
}

export const sourceMapScanner = definePlugin({
  kind: 'scanner',
  name: 'source-map',
  description:
    'Source maps named by bundles: the original files they embed (sourcesContent), library code left out, handed to the JavaScript scanners.',
  options,
  enabledByDefault: true,
  setup: ({ maxSources }) => ({
    reads: ['source-map'],
    scan: (source) => unpackSourceMap(source, maxSources),
  }),
});
