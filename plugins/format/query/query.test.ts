// The query format without a model: passages ranked by BM25 on fixture pages with known answers,
// the best one as the answer; the `query` field required; the page text kept for a model only
// until the server thread takes it out.
import { describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { htmlPage } from '../../../test/helpers/html-page.ts';
import { snakeFieldName, testContext } from '../../../core/testing.ts';
import { bestPassages } from './passages.ts';
import type { QueryOutput } from './answer.ts';
import { queryFormat } from './query.ts';

const fixture = (name: string) => readFileSync(new URL(`../../../test/fixtures/llm/${name}.html`, import.meta.url), 'utf8');

async function ask(page: string, query: string): Promise<QueryOutput> {
  const handler = await queryFormat.setup(queryFormat.options!.parse({}), testContext());
  const doc = await htmlPage(fixture(page), { url: 'https://example.com/page', formats: ['query'], query, onlyMainContent: true });
  return (await handler.render(doc)) as QueryOutput;
}

describe('query format without a model', () => {
  test.each([
    ['bridge', 'When was the bridge opened?', '19 March 1932'],
    ['bridge', 'How long is the span of the arch?', '503 metres'],
    ['bridge', 'How many vehicles cross it every day?', '160,000 vehicles'],
    ['bridge', 'Who built the bridge?', '1,400 workers'],
    ['museum', 'What time does the museum close on Saturday?', 'until 6 p.m.'],
    ['museum', 'How much is an adult ticket?', '€12'],
    ['museum', 'Where is the museum?', '4 Quay Street'],
    ['museum', 'Can I borrow a wheelchair?', 'Wheelchairs can be borrowed'],
  ])('%s: %s', async (page, question, answer) => {
    const output = await ask(page, question);
    expect(output.method).toBe('extractive');
    expect(output.answer).toContain(answer);
    expect(output.passages[0]!.text).toBe(output.answer);
    expect(output.passages.length).toBeLessThanOrEqual(3);
    const scores = output.passages.map((p) => p.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  test('no content word of the question on the page: no answer, and a warning', async () => {
    const handler = await queryFormat.setup(queryFormat.options!.parse({}), testContext());
    const doc = await htmlPage(fixture('museum'), {
      url: 'https://example.com/page',
      formats: ['query'],
      query: 'Quantum chromodynamics?',
    });
    expect(await handler.render(doc)).toMatchObject({ answer: '', passages: [] });
    expect(doc.messages.map((m) => m.message)).toContain('No passage of the page matches the question');
  });

  test('the page text rides along for the model and is taken out on the server thread without one', async () => {
    const handler = await queryFormat.setup(queryFormat.options!.parse({}), testContext());
    const doc = await htmlPage(fixture('museum'), { url: 'https://example.com/page', formats: ['query'], query: 'Tickets?' });
    const rendered = (await handler.render(doc)) as QueryOutput;
    expect(rendered.context).toContain('A ticket for adults costs €12.');
    const completed = await handler.complete!(rendered, doc);
    expect(completed).toEqual({ answer: rendered.answer, method: 'extractive', passages: rendered.passages });
  });

  test('the format needs `query`', async () => {
    const handler = await queryFormat.setup(queryFormat.options!.parse({}), testContext());
    const doc = await htmlPage('<p>x</p>', { url: 'https://example.com/', formats: ['query'] });
    expect(handler.validate!(doc.job, snakeFieldName)).toBe('Format "query" needs query: the question to answer from the page');
  });

  test('passages are deterministic and stay within one block, under their heading', () => {
    const text = 'Prices\n\nBread costs 2 euros. Milk costs 1 euro.\n\nOpening\n\nThe shop opens at 8.';
    expect(bestPassages(text, 'When does the shop open?', 'en', 3)).toEqual([{ text: 'The shop opens at 8.', score: expect.any(Number) }]);
    expect(bestPassages(text, 'prices', 'en', 3)).toEqual(bestPassages(text, 'prices', 'en', 3));
    expect(bestPassages(text, 'prices', 'en', 3)[0]!.text).toBe('Bread costs 2 euros. Milk costs 1 euro.');
  });
});
