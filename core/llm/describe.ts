/**
 * One structured question about a site's pages, for features that add a model's judgement to
 * what they read deterministically (a lead's summary, a brand's tone): the pages' text cut to the
 * model's input budget, one call, the answer validated against the schema. A model that fails
 * gives a warning, not a failed request: the deterministic part still stands.
 */
import { TrawlError } from '../errors.ts';
import { splitText } from './chunks.ts';
import type { checkedSchema } from './schema.ts';
import type { Generated, LlmService, Provider } from './service.ts';

export interface DescribeRequest {
  system: string;
  instruction: string;
  /** The pages' text, most important first (what does not fit is left out). */
  texts: string[];
  schema: ReturnType<typeof checkedSchema>;
  schemaName: string;
  signal?: AbortSignal;
}

export type Described = { generated: Generated; data: Record<string, unknown> } | { warning: string };

export async function describeWithModel(llm: LlmService, provider: Provider, request: DescribeRequest): Promise<Described> {
  try {
    const count = await llm.counter(provider);
    const {
      parts: [material],
    } = splitText(request.texts.filter(Boolean).join('\n\n'), llm.inputBudget(provider, 200), count, 1);
    const generated = await llm.generate({
      messages: [
        { role: 'system', content: request.system },
        { role: 'user', content: `${request.instruction}\n\n${material ?? ''}` },
      ],
      schema: request.schema,
      schemaName: request.schemaName,
      signal: request.signal,
    });
    return { generated, data: generated.data as Record<string, unknown> };
  } catch (err) {
    if (!(err instanceof TrawlError) || request.signal?.aborted) throw err;
    return { warning: `The language model could not answer: ${err.message}` };
  }
}
