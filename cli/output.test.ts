import { describe, expect, test } from 'bun:test';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { namedByFlags } from './errors.ts';
import { pageFileName, writePages } from './output.ts';
import { barOf, duration, pace } from './progress.ts';

describe('--out-dir file names', () => {
  test('host and path, index for the root, a hash for a query, a number for a repeat', () => {
    const taken = new Set<string>();
    expect(pageFileName('https://example.com/', 'md', taken)).toBe('example.com_index.md');
    expect(pageFileName('https://example.com/docs/intro/', 'md', taken)).toBe('example.com_docs_intro.md');
    expect(pageFileName('https://example.com/docs/intro', 'md', taken)).toBe('example.com_docs_intro-2.md');
    expect(pageFileName('https://example.com/search?q=a', 'md', taken)).toMatch(/^example\.com_search_[0-9a-f]{10}\.md$/);
    expect(pageFileName(`https://example.com/${'a'.repeat(300)}`, 'txt', taken)).toHaveLength(120 + 11 + 4);
  });

  test('no name can climb out of the folder or hide as a dot file', () => {
    const taken = new Set<string>();
    for (const url of [
      'https://example.com/..%2F..%2Fetc%2Fpasswd',
      'https://example.com/a/../../../../etc/passwd',
      '../../etc/passwd',
      '..',
      '/etc/passwd',
      'C:\\Windows\\x',
    ]) {
      const name = pageFileName(url, 'md', taken);
      expect(name).not.toContain('/');
      expect(name).not.toContain('\\');
      expect(name).not.toStartWith('.');
    }
    const dir = mkdtempSync(join(tmpdir(), 'trawl-out-'));
    try {
      const written = writePages(join(dir, 'pages'), [
        { url: '../../escape', text: 'x', extension: 'md' },
        { url: 'https://example.com/', text: 'y', extension: 'md' },
      ]);
      expect(written.every((path) => path.startsWith(`${join(dir, 'pages')}/`))).toBe(true);
      expect(readdirSync(dir)).toEqual(['pages']);
      expect(readdirSync(join(dir, 'pages')).sort()).toEqual(['escape.md', 'example.com_index.md']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('progress numbers', () => {
  test('rate, ETA and the bar', () => {
    expect(pace(10, 40, 0, 5_000)).toEqual({ rate: '2.0', eta: '15s' });
    expect(pace(0, 40, 0, 5_000)).toEqual({ rate: '0.0', eta: '?' });
    expect(duration(125)).toBe('2m05s');
    expect(barOf(6, 24)).toBe(`[${'#'.repeat(6)}${'-'.repeat(18)}]`);
    expect(barOf(0, 0)).toBe(`[${'-'.repeat(24)}]`);
  });
});

describe('API messages name the flags', () => {
  test('fields, nested fields and list items', () => {
    const flags = { num_results: '--num', 'scrape_options.formats': '--format', urls: '<urls>' };
    expect(namedByFlags('Invalid field num_results: Too big', flags)).toBe('Invalid field --num: Too big');
    expect(namedByFlags('Invalid field scrape_options.formats[0]: unknown format "x"', flags)).toBe(
      'Invalid field --format[0]: unknown format "x"',
    );
    expect(namedByFlags('Missing required field: urls', flags)).toBe('Missing required field: <urls>');
    expect(namedByFlags('Invalid field country: bad', flags)).toBe('Invalid field country: bad');
  });
});
