/**
 * Every blocked-page fixture through every blocker recogniser, set up as the registry sets them up
 * (default options, registration order): the first answer must be the expected vendor and kind,
 * content must get no answer at all, and no page may be claimed by two recognisers — the verdict
 * does not depend on the order they are asked in.
 */
import { describe, expect, test } from 'bun:test';
import { z } from 'zod';
import { BLOCKER_BODY_CHARS } from '../../core/kit.ts';
import type { BlockerHandler, BlockerInput } from '../../core/kit.ts';
import { testContext } from '../../core/testing.ts';
import { builtinPlugins } from '../index.ts';
import { blockedPages, type BlockedPageCase } from '../../test/fixtures/blocked-pages.ts';
import { setsCookie, visibleChars } from './shared/page.ts';

const recognisers: Array<{ name: string; handler: BlockerHandler }> = [];
for (const plugin of builtinPlugins.filter((p) => p.kind === 'blocker')) {
  const options = (plugin.options ?? z.strictObject({})).parse({});
  recognisers.push({ name: plugin.name, handler: (await plugin.setup(options, testContext())) as BlockerHandler });
}

/** The input the pipeline builds: the body's first 256 KB, the title trimmed and whitespace collapsed. */
function inputOf(page: BlockedPageCase): BlockerInput {
  const body = page.body.slice(0, BLOCKER_BODY_CHARS);
  const title = /<title\b[^>]*>([\s\S]*?)<\/title\s*>/i.exec(body)?.[1]?.replace(/\s+/g, ' ').trim() ?? '';
  return { status: page.status, headers: page.headers, url: page.url ?? 'https://www.example.com/', body, title };
}

test('all seven recognisers are registered, vendors before CAPTCHA walls, enabled by default', () => {
  expect(recognisers.map((r) => r.name)).toEqual(['cloudflare', 'akamai', 'datadome', 'perimeterx', 'recaptcha', 'hcaptcha', 'turnstile']);
  expect(builtinPlugins.filter((p) => p.kind === 'blocker').every((p) => p.enabledByDefault)).toBe(true);
});

test('every vendor has at least two blocked fixtures, and near misses exist', () => {
  for (const { name } of recognisers) expect(blockedPages.filter((c) => c.expected?.vendor === name).length).toBeGreaterThanOrEqual(2);
  expect(blockedPages.filter((c) => c.expected === null).length).toBeGreaterThanOrEqual(8);
});

describe('blocked-page fixtures', () => {
  for (const page of blockedPages) {
    test(page.name, () => {
      const input = inputOf(page);
      const answers = recognisers.flatMap(({ name, handler }) => {
        const verdict = handler.recognise(input);
        return verdict ? [{ name, ...verdict }] : [];
      });
      const first = answers[0];
      expect(first ? { vendor: first.vendor, kind: first.kind } : null).toEqual(page.expected);
      if (first) {
        expect(first.vendor).toBe(first.name);
        expect(first.evidence.length).toBeGreaterThan(0);
      }
      expect(answers.map((a) => a.name)).toHaveLength(page.expected ? 1 : 0);
    });
  }
});

describe('shared helpers', () => {
  test('visibleChars counts text outside markup, scripts, styles, comments and the title, and stops past the limit', () => {
    const body =
      '<html><head><title>Long title here</title><style>p{color:red}</style></head><body><!-- note --><p>ab c</p><script>var x = "<p>no</p>";</script><SCRIPT>1</SCRIPT>d</body></html>';
    expect(visibleChars(body, 100)).toBe(4);
    expect(visibleChars(`<p>${'x'.repeat(5000)}</p>`, 10)).toBe(11);
    expect(visibleChars('<script>never closed', 10)).toBe(0);
  });

  test('setsCookie finds a cookie by name, not a value or attribute that ends with it', () => {
    const page = {
      status: 200,
      url: '',
      body: '',
      title: '',
      headers: { 'set-cookie': 'a=1; Path=/; Expires=Wed, 21 Oct 2026 07:28:00 GMT, datadome=x; Path=/, xdatadome=y' },
    };
    expect(setsCookie(page, 'datadome')).toBe(true);
    expect(setsCookie(page, 'a')).toBe(true);
    expect(setsCookie(page, 'sec_cpt')).toBe(false);
    expect(setsCookie({ ...page, headers: { 'set-cookie': 'xdatadome=y' } }, 'datadome')).toBe(false);
  });

  test("a CAPTCHA wall steps aside on a vendor's interstitial, which the vendor names", () => {
    const wall = blockedPages.find((c) => c.name === "turnstile wall: a site's own verification page")!;
    const input = inputOf({
      ...wall,
      status: 403,
      body: wall.body.replace('</head>', "<script>window._cf_chl_opt={cType: 'managed'};</script></head>"),
    });
    const answers = recognisers.map(({ name, handler }) => [name, handler.recognise(input)?.vendor ?? null]);
    expect(answers.filter(([, vendor]) => vendor)).toEqual([['cloudflare', 'cloudflare']]);
  });

  test('a CAPTCHA wall threshold is an option: a lower one leaves a short verification page alone', async () => {
    const plugin = builtinPlugins.find((p) => p.kind === 'blocker' && p.name === 'turnstile')!;
    const strict = (await plugin.setup(plugin.options!.parse({ maxVisibleChars: 20 }), testContext())) as BlockerHandler;
    const gate = blockedPages.find((c) => c.name.startsWith('turnstile wall: a site\'s own "one more step"'))!;
    expect(strict.recognise(inputOf(gate))).toBeNull();
  });
});
