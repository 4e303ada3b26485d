// The pipeline hook automatic rendering relies on, with small fake plugins: after detect another
// fetcher may fetch the page again; its page replaces the first, and if it fails the first stands.
import { describe, expect, test } from 'bun:test';
import pino from 'pino';
import { testJob } from '../../test/helpers/plugin-context.ts';
import { loadConfig } from '../config.ts';
import type { PageDocument } from '../document.ts';
import { Pipeline } from '../pipeline.ts';
import { definePlugin, type AnyPlugin } from '../plugin.ts';
import { PluginRegistry } from '../registry.ts';
import { FETCHER_ID } from '../data-bag.ts';

const html = (body: string) => ({
  status: 200,
  headers: {},
  body: new TextEncoder().encode(body),
  finalUrl: 'https://example.com/',
  mediaType: 'text/html',
  text: body,
});
const asked: string[] = [];

function plugins(options: { renderFails?: boolean; shell?: boolean } = {}): AnyPlugin[] {
  return [
    definePlugin({
      kind: 'fetcher',
      name: 'renderer',
      description: '',
      rerender: (doc: PageDocument) => {
        asked.push(`renderer saw ${doc.data.get(FETCHER_ID)}`);
        return options.shell ?? true;
      },
      setup: () => ({
        matches: () => false,
        fetch: async (doc) => {
          if (options.renderFails) throw new Error('browser fell over');
          doc.response = html('<h1>Rendered</h1><p>Hello from script</p>');
        },
      }),
    }),
    definePlugin({
      kind: 'fetcher',
      name: 'plain',
      description: '',
      rerender: () => {
        asked.push('plain asked');
        return true;
      },
      setup: () => ({
        matches: () => true,
        fetch: async (doc) => {
          doc.response = html('<div id="root"></div>');
        },
      }),
    }),
    definePlugin({
      kind: 'document',
      name: 'htmlish',
      description: '',
      setup: () => ({ detect: () => true, parse: (doc) => doc.setContentHtml(doc.response!.text!) }),
    }),
    definePlugin({
      kind: 'format',
      name: 'echo',
      provides: ['format:echo'],
      description: '',
      setup: () => ({ render: (doc) => doc.root!.innerHTML }),
    }),
  ] as unknown as AnyPlugin[];
}

async function run(options: Parameters<typeof plugins>[0]) {
  const list = plugins(options);
  const config = loadConfig({ plugins: list, defaultFile: null, env: {} });
  const registry = new PluginRegistry(list, config);
  await registry.setup(() => ({
    logger: pino({ level: 'silent' }),
    config,
    resolve: () => {
      throw new Error('no services');
    },
  }));
  asked.length = 0;
  return new Pipeline(registry, pino({ level: 'silent' })).run(testJob({ url: 'https://example.com/', formats: ['echo'] }));
}

describe('refetch after detect', () => {
  test('a fetcher that asks replaces the page; only fetchers other than the producer are asked', async () => {
    const { doc, result } = await run({});
    expect(result.formats.echo).toBe('<h1>Rendered</h1><p>Hello from script</p>');
    expect(doc.data.get(FETCHER_ID)).toBe('fetcher.renderer');
    expect(asked).toEqual(['renderer saw fetcher.plain']);
    expect(Object.keys(doc.timings)).toEqual(expect.arrayContaining(['fetch', 'detect', 'refetch', 'transform', 'format']));
  });

  test('nobody asking leaves the first page', async () => {
    const { doc, result } = await run({ shell: false });
    expect(result.formats.echo).toBe('<div id="root"></div>');
    expect(doc.data.get(FETCHER_ID)).toBe('fetcher.plain');
    expect(doc.timings.refetch).toBeUndefined();
  });

  test('a failed refetch keeps the first page, with a warning', async () => {
    const { result } = await run({ renderFails: true });
    expect(result.formats.echo).toBe('<div id="root"></div>');
    expect(result.warnings.map((m) => `${m.plugin}: ${m.message}`)).toEqual([
      'fetcher.renderer: Fetching the page again failed; it is returned as first fetched: browser fell over',
    ]);
  });
});
