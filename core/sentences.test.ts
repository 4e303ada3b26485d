// Sentences and content words for the extractive answers and summaries.
import { describe, expect, test } from 'bun:test';
import { foldWord, sentencesOf, termsOf } from './sentences.ts';

describe('sentencesOf', () => {
  test('blocks become sentences; short lines without an ending are headings', () => {
    const text =
      'Opening hours\n\nThe museum opens at 9 a.m. on weekdays. It closes at 5 p.m.! Is it open on Sundays? No.\n\n- Free entry for children.';
    expect(sentencesOf(text, 'en')).toEqual([
      { text: 'Opening hours', block: 0, heading: true },
      { text: 'The museum opens at 9 a.m. on weekdays.', block: 1, heading: false },
      { text: 'It closes at 5 p.m.!', block: 1, heading: false },
      { text: 'Is it open on Sundays?', block: 1, heading: false },
      { text: 'No.', block: 1, heading: false },
      { text: '- Free entry for children.', block: 2, heading: false },
    ]);
  });

  test('other languages and scripts, and a cap', () => {
    expect(sentencesOf('Der Zug fährt um 8 Uhr. Er kommt um 9 Uhr an.', 'de').map((s) => s.text)).toEqual([
      'Der Zug fährt um 8 Uhr.',
      'Er kommt um 9 Uhr an.',
    ]);
    expect(sentencesOf('今日は晴れです。明日は雨です。', 'ja').map((s) => s.text)).toEqual(['今日は晴れです。', '明日は雨です。']);
    expect(sentencesOf('One. Two. Three. Four.', 'xx-unknown', 2)).toHaveLength(2);
  });
});

describe('termsOf', () => {
  test('lower case, stop words out, forms folded so they meet', () => {
    expect(termsOf('When was the Bridge OPENED?')).toEqual(['bridge', 'open']);
    expect(termsOf('The opening of the bridges')).toEqual(['open', 'bridge']);
    expect(termsOf("the city's 1,400 workers")).toEqual(['city', '1,400', 'worker']);
    expect(['cities', 'boxes', 'glass', 'news'].map(foldWord)).toEqual(['city', 'box', 'glass', 'news']);
  });
});
