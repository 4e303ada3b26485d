/**
 * The answer with a model: on the server thread, after the extractive answer was rendered, the
 * configured language model answers the question from the page — the whole page text when it
 * fits the model's context, else the best passages — as JSON `{answer, found}`, checked by the
 * LLM service. Without a configured model the extractive answer stands.
 */
import { checkedSchema } from '../../../core/kit.ts';
import type { LlmService, PageDocument } from '../../../core/kit.ts';
import type { Passage } from './passages.ts';

export interface QueryOutput {
  answer: string;
  method: 'extractive' | 'llm';
  passages: Passage[];
  /** The page text for the model, when short enough to be worth sending whole; never shown (taken out on the server thread). */
  context?: string;
}

const ANSWER_SCHEMA = checkedSchema(
  {
    type: 'object',
    properties: {
      answer: { type: 'string', description: 'The answer, in one to three sentences, from the page only.' },
      found: { type: 'boolean', description: 'Whether the page answers the question.' },
    },
    required: ['answer', 'found'],
    additionalProperties: false,
  },
  4096,
);

const SYSTEM =
  'You answer a question about one web page, using only the page text given, never outside knowledge. ' +
  'If the page does not answer the question, say so in the answer and set found to false. Keep the answer short.';
const MAX_ANSWER_TOKENS = 512;
/** Tokens of instructions around the page text. */
const PROMPT_TOKENS = 300;

export async function modelAnswer(llm: LlmService, output: QueryOutput, doc: PageDocument): Promise<QueryOutput> {
  const provider = llm.require();
  const question = doc.job.request.query ?? '';
  const budget = llm.inputBudget(provider, PROMPT_TOKENS + question.length, MAX_ANSWER_TOKENS);
  const whole = output.context !== undefined && (await llm.counter(provider))(output.context) <= budget;
  const material = whole
    ? `Page text:\n${output.context}`
    : `Passages of the page:\n${output.passages.map((p, i) => `[${i + 1}] ${p.text}`).join('\n')}`;
  const title = doc.metadata.title ? `Page: ${doc.metadata.title}\n` : '';
  const generated = await llm.generate({
    messages: [
      { role: 'system', content: SYSTEM },
      { role: 'user', content: `${title}URL: ${doc.baseUrl}\n\n${material}\n\nQuestion: ${question}` },
    ],
    schema: ANSWER_SCHEMA,
    schemaName: 'page_answer',
    maxOutputTokens: MAX_ANSWER_TOKENS,
    signal: doc.job.signal,
  });
  const { answer } = generated.data as { answer: string; found: boolean };
  return { answer: answer.trim(), method: 'llm', passages: output.passages };
}
