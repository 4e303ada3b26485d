// executeJavascript: which code is accepted, and what running it in Chromium gives back.
import { describe, expect, test } from 'bun:test';
import { testContext, useTestBrowserPool, withHtmlPage } from '../../../core/testing.ts';
import { executeJavascriptAction } from './execute-javascript.ts';
import { MAX_RESULT_CHARS, wrapScript } from './script.ts';

const pool = useTestBrowserPool();
const js = executeJavascriptAction.setup({}, testContext()) as Awaited<ReturnType<typeof executeJavascriptAction.setup>>;

describe('wrapScript', () => {
  test('expressions and function bodies are both accepted; broken code is not', () => {
    expect(wrapScript('document.title')).toContain('(async () => (document.title\n))()');
    expect(wrapScript('const a = 1; return a + 1')).toContain('(async () => {const a = 1; return a + 1\n})()');
    expect(wrapScript('await new Promise((r) => setTimeout(r, 1)); return 2')).not.toBeNull();
    expect(wrapScript('return (')).toBeNull();
    expect(js.schema.safeParse({ type: 'executeJavascript', code: 'function (' }).error?.issues[0]?.message).toContain(
      'is not valid JavaScript',
    );
    expect(js.schema.safeParse({ type: 'executeJavascript', code: '' }).success).toBe(false);
    expect(js.schema.safeParse({ type: 'executeJavascript', script: '1' }).success).toBe(false);
  });
});

async function run(code: string, html = '<title>Tides</title><p id="n">42</p>') {
  return withHtmlPage(pool, html, (page) =>
    js.run(page, js.schema.parse({ type: 'executeJavascript', code }), { index: 0, timeoutMs: 1000 }).then(
      (output) => (output && 'jsResult' in output ? output.jsResult : 'no result'),
      (e: Error) => `error: ${e.message}`,
    ),
  );
}

describe('running in the page', () => {
  test('values come back as JSON values', async () => {
    expect(await run('document.title')).toBe('Tides');
    expect(await run('const n = Number(document.querySelector("#n").textContent); return { n, double: n * 2 }')).toEqual({
      n: 42,
      double: 84,
    });
    expect(await run('await new Promise((r) => setTimeout(() => r([1, "two"]), 10))')).toEqual([1, 'two']);
    expect(await run('undefined')).toBeNull();
    expect(await run('window.alert')).toBeNull();
  });

  test('failures say what happened', async () => {
    expect(await run('throw new Error("no tides today")')).toBe('error: the script threw Error: no tides today');
    expect(await run('const a = {}; a.self = a; return a')).toStartWith('error: the script threw TypeError');
    expect(await run('new Promise(() => {})')).toBe('error: the script did not finish within 1000 ms');
    expect(await run(`"x".repeat(${MAX_RESULT_CHARS + 1})`)).toContain(`the result is larger than ${MAX_RESULT_CHARS} characters`);
  });
});
