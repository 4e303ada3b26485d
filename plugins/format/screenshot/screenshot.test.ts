// The screenshot format hands out the PNG the browser fetcher took, and refuses when there is none.
import { expect, test } from 'bun:test';
import { SCREENSHOT, TrawlError } from '../../../core/kit.ts';
import { testContext, testDocument } from '../../../core/testing.ts';
import { screenshotFormat } from './screenshot.ts';

const format = screenshotFormat.setup({}, testContext()) as Awaited<ReturnType<typeof screenshotFormat.setup>>;

test('renders the screenshot the browser took', () => {
  const doc = testDocument({ url: 'https://example.com/', formats: ['screenshot'] });
  doc.data.set(SCREENSHOT, 'iVBORw0KGgo=');
  expect(format.render(doc)).toBe('iVBORw0KGgo=');
});

test('without a rendered page there is nothing to hand out', () => {
  const doc = testDocument({ url: 'https://example.com/', formats: ['screenshot'] });
  expect(() => format.render(doc)).toThrow(
    new TrawlError('unprocessable', 'No screenshot was taken: the page was not rendered in the browser'),
  );
});
