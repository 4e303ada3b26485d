/**
 * The pipeline's run modes with small fake plugins: first-match fetch and detect, ordered
 * transforms, parallel formats where one failure becomes a warning, sinks that never fail a scrape,
 * and errors that carry code, stage and plugin id.
 */
import { describe, expect, test } from 'bun:test';
import pino from 'pino';
import { loadConfig } from './config.ts';
import { TrawlError } from './errors.ts';
import { definePlugin, type AnyPlugin } from './plugin.ts';
import { Pipeline } from './pipeline.ts';
import { PluginRegistry } from './registry.ts';
import { testJob } from '../test/helpers/plugin-context.ts';
import { FETCHER_ID } from './data-bag.ts';

const page = (html: string) => ({
  status: 200,
  headers: {},
  body: new TextEncoder().encode(html),
  finalUrl: 'https://example.com/',
  mediaType: 'text/html',
  text: html,
});
const sinkWrites: unknown[] = [];

function plugins(options: { fetchFails?: boolean; transformFails?: boolean } = {}): AnyPlugin[] {
  return [
    definePlugin({
      kind: 'fetcher',
      name: 'never',
      description: '',
      setup: () => ({
        matches: () => false,
        fetch: async () => {
          throw new Error('must not run');
        },
      }),
    }),
    definePlugin({
      kind: 'fetcher',
      name: 'fake',
      description: '',
      setup: () => ({
        matches: () => true,
        fetch: async (doc) => {
          if (options.fetchFails) throw new TrawlError('fetch_failed', 'Failed to fetch URL: connection refused');
          doc.response = page('<p>Hello <b>there</b> friend</p>');
        },
      }),
    }),
    definePlugin({
      kind: 'document',
      name: 'pdfish',
      description: '',
      setup: () => ({
        detect: () => false,
        parse: () => {
          throw new Error('must not run');
        },
      }),
    }),
    definePlugin({
      kind: 'document',
      name: 'htmlish',
      description: '',
      setup: () => ({ detect: (doc) => doc.response?.mediaType === 'text/html', parse: (doc) => doc.setContentHtml(doc.response!.text!) }),
    }),
    definePlugin({
      kind: 'transform',
      name: 'shout',
      order: 'post',
      description: '',
      setup: () => ({
        apply: (doc) => {
          doc.root!.querySelector('p')!.setAttribute('data-order', `${doc.root!.querySelector('p')!.getAttribute('data-order')}-post`);
        },
      }),
    }),
    definePlugin({
      kind: 'transform',
      name: 'mark',
      order: 'pre',
      description: '',
      setup: () => ({
        apply: (doc) => {
          if (options.transformFails) throw new Error('boom');
          doc.root!.querySelector('p')!.setAttribute('data-order', 'pre');
        },
      }),
    }),
    definePlugin({
      kind: 'format',
      name: 'echo',
      provides: ['format:echo'],
      description: '',
      setup: () => ({ render: (doc) => doc.root!.innerHTML }),
    }),
    definePlugin({
      kind: 'format',
      name: 'broken',
      provides: ['format:broken'],
      description: '',
      setup: () => ({
        render: () => {
          throw new Error('renderer exploded');
        },
      }),
    }),
    definePlugin({
      kind: 'sink',
      name: 'memory',
      description: '',
      setup: () => ({
        write: (_doc, result) => {
          sinkWrites.push(result);
        },
      }),
    }),
    definePlugin({
      kind: 'sink',
      name: 'flaky',
      description: '',
      setup: () => ({
        write: () => {
          throw new Error('disk full');
        },
      }),
    }),
  ] as unknown as AnyPlugin[];
}

async function pipelineWith(list: AnyPlugin[]): Promise<Pipeline> {
  const config = loadConfig({ plugins: list, defaultFile: null, env: {} });
  const registry = new PluginRegistry(list, config);
  await registry.setup(() => ({
    logger: pino({ level: 'silent' }),
    config,
    resolve: () => {
      throw new Error('no services');
    },
  }));
  return new Pipeline(registry, pino({ level: 'silent' }));
}

describe('pipeline', () => {
  test('runs every stage in its mode and records timings', async () => {
    const pipeline = await pipelineWith(plugins());
    sinkWrites.length = 0;
    const { doc, result } = await pipeline.run(testJob({ url: 'https://example.com/', formats: ['echo', 'broken'] }));
    expect(doc.type).toBe('document.htmlish');
    expect(doc.data.get(FETCHER_ID)).toBe('fetcher.fake');
    expect(result.formats.echo).toBe('<p data-order="pre-post">Hello <b>there</b> friend</p>');
    expect(result.formats.broken).toBeUndefined();
    expect(result.warnings.map((m) => `${m.plugin}: ${m.message}`)).toEqual(['format.broken: Format "broken" failed: renderer exploded']);
    expect(result.metadata.wordCount).toBe(3);
    expect(sinkWrites).toEqual([result]); // the flaky sink did not fail the scrape
    for (const stage of ['fetch', 'detect', 'transform', 'format', 'sink', 'transform.mark'])
      expect(doc.timings[stage]).toBeGreaterThanOrEqual(0);
  });

  test('a fetch failure keeps its code and names the stage and plugin', async () => {
    const pipeline = await pipelineWith(plugins({ fetchFails: true }));
    const error = await pipeline.run(testJob({ url: 'https://example.com/', formats: ['echo'] })).catch((e) => e);
    expect(error).toBeInstanceOf(TrawlError);
    expect(error).toMatchObject({ code: 'fetch_failed', status: 422, stage: 'fetch', pluginId: 'fetcher.fake' });
  });

  test('an unexpected error becomes an internal error naming the stage and plugin', async () => {
    const pipeline = await pipelineWith(plugins({ transformFails: true }));
    const error = await pipeline.run(testJob({ url: 'https://example.com/', formats: ['echo'] })).catch((e) => e);
    expect(error).toMatchObject({ code: 'internal', status: 500, stage: 'transform', pluginId: 'transform.mark', message: 'boom' });
  });

  test('unsupported content is a 422', async () => {
    const list = plugins().filter((p) => p.name !== 'htmlish');
    const pipeline = await pipelineWith(list);
    const error = await pipeline.run(testJob({ url: 'https://example.com/', formats: ['echo'] })).catch((e) => e);
    expect(error).toMatchObject({ code: 'unsupported_content', status: 422, message: 'Unsupported content type: text/html' });
  });

  test('a job cancelled before a stage stops there', async () => {
    const pipeline = await pipelineWith(plugins());
    const controller = new AbortController();
    controller.abort();
    const job = { ...testJob({ url: 'https://example.com/' }), signal: controller.signal };
    const error = await pipeline.run(job).catch((e) => e);
    expect(error).toMatchObject({ code: 'timeout', stage: 'fetch' });
  });
});
