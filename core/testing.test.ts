// The test kit's fixture-folder runner: cases found by their input file, outputs compared with the
// expectation beside them, and UPDATE=1 writing expectations instead of trusting them.
import { afterAll, describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixtureCases, testFixtures } from './testing.ts';

const FILES = { input: 'input.txt', expected: 'expected.txt' };
const dir = mkdtempSync(join(tmpdir(), 'trawl-fixtures-'));
const write = (path: string, text: string) => {
  mkdirSync(join(dir, path, '..'), { recursive: true });
  writeFileSync(join(dir, path), text);
};
write('b-shout/input.txt', 'hello');
write('b-shout/expected.txt', 'HELLO\n');
write('a-empty/input.txt', '');
write('a-empty/expected.txt', '\n');
write('notes/readme.txt', 'a folder without an input is not a case');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a fixture folder', () => {
  testFixtures(dir, FILES, (input) => input.toUpperCase());

  test('its cases are the folders holding an input, in name order', () => {
    expect(fixtureCases(dir, FILES).map((c) => [c.name, c.input])).toEqual([
      ['a-empty', ''],
      ['b-shout', 'hello'],
    ]);
  });

  test('a differing output fails; with UPDATE=1 it becomes the expectation', () => {
    const [, shout] = fixtureCases(dir, FILES);
    const before = process.env.UPDATE;
    try {
      process.env.UPDATE = '';
      expect(() => shout!.expect('Hello')).toThrow();
      process.env.UPDATE = '1';
      shout!.expect('Hello');
    } finally {
      if (before === undefined) delete process.env.UPDATE;
      else process.env.UPDATE = before;
    }
    expect(readFileSync(join(dir, 'b-shout/expected.txt'), 'utf8')).toBe('Hello\n');
    shout!.expect('Hello');
  });
});
