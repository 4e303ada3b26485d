// TextRank over sentences: the sentences most connected to the rest rank highest, in a stable,
// deterministic order; the extractive summary keeps them in page order.
import { describe, expect, test } from 'bun:test';
import { extractiveSummary } from './service.ts';
import { textRank, topSentences } from './textrank.ts';

const sentences = [
  'Tidal turbines turn the energy of moving water into electricity.',
  'The tidal turbines at the site produce electricity from the strong tidal currents every day.',
  'The weather was pleasant during the visit.',
  'Engineers maintain the turbines and measure how much electricity the currents produce.',
  'Lunch was served in the harbour cafe.',
];

describe('textRank', () => {
  test('scores sum to one; the sentence that shares the most with the others ranks first', () => {
    const scores = textRank(sentences);
    expect(scores.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 6);
    const order = scores
      .map((s, i) => [s, i] as const)
      .sort((a, b) => b[0] - a[0])
      .map(([, i]) => i);
    expect(order[0]).toBe(1);
    expect(order.slice(-2).sort()).toEqual([2, 4]);
  });

  test('the best sentences come back in text order, the same every time', () => {
    expect(topSentences(sentences, 3)).toEqual([0, 1, 3]);
    expect(topSentences(sentences, 3)).toEqual(topSentences(sentences, 3));
    expect(topSentences([], 3)).toEqual([]);
    expect(topSentences(['Only one sentence here.'], 3)).toEqual([0]);
  });
});

describe('extractiveSummary', () => {
  test("headings and fragments are no candidates; the page's own sentences, in order", () => {
    const text = `Tidal power\n\n${sentences.join(' ')}\n\nShare\n\nOK.`;
    expect(extractiveSummary(text, 'en', 2)).toBe(`${sentences[1]} ${sentences[3]}`);
  });
});
