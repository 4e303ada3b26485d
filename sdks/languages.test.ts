/**
 * Runs the Python and Go SDKs' own test suites as subprocesses, each against a harness of its own
 * (a real Trawl server and its fixtures, sdks/harness.ts: its rate-limited key, 429 front and
 * caches keep state), so `bun run test` covers all three SDKs. A missing toolchain is a failure
 * that says how to install it, never a skip.
 */
import { describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { exec, need, startSdkHarness } from './harness.ts';

async function run(command: string[], cwd: string, install: string): Promise<string> {
  need(command[0]!, install);
  const harness = await startSdkHarness();
  try {
    return await exec(command, cwd, { TRAWL_SDK_TEST_ENV: JSON.stringify(harness.env), GOFLAGS: '-count=1' });
  } finally {
    await harness.stop();
  }
}

describe('SDK test suites', () => {
  test('Python: python3 -m unittest', async () => {
    const output = await run(
      ['python3', '-m', 'unittest', 'discover', '-v', '-s', 'tests', '-t', '.'],
      join(import.meta.dir, 'python'),
      'apt-get install -y python3',
    );
    expect(output).toMatch(/^Ran ([1-9]\d*) tests/m);
    expect(output).not.toContain('skipped');
  }, 120_000);
  test('Go: go test', async () => {
    const output = await run(['go', 'test', '-v', './...'], join(import.meta.dir, 'go'), 'apt-get install -y golang-go');
    expect(output).toMatch(/^--- PASS: /m);
    expect(output).not.toContain('--- SKIP');
  }, 120_000);
});
