/**
 * POST /v1/extract behind the route: the page is scraped through the Scraper into the lean `llm`
 * text (cache, SSRF guard, document types as any scrape), split to fit the model's context, and
 * each part is extracted into JSON matching the schema — the request's, or one generated from the
 * prompt first (schema-gen.ts). The parts' answers are merged (arrays joined, other values from the
 * first part that has them) and the result checked against the schema once more. A request that
 * cannot be answered says why before anything is fetched: no prompt and no schema (400), a bad
 * schema (400), no model configured (503).
 */
import { mapBounded } from '../../bounded.ts';
import { badRequest, TrawlError } from '../../errors.ts';
import type { FieldNamer, JsonSchema, LlmUsage } from '../../plugin.ts';
import { internalNames, type Scraper } from '../../scrape.ts';
import { scrapeFor } from '../../scrape-for.ts';
import { mergeParts, pageParts, withoutHeader } from '../chunks.ts';
import { checkedSchema } from '../schema.ts';
import type { CheckedSchema, LlmService, Provider } from '../service.ts';
import type { ExtractRequest } from './request.ts';
import { FIELD_LIST_SCHEMA, SCHEMA_SYSTEM_PROMPT, schemaFromFields } from './schema-gen.ts';

/** A checked extract request: what to ask for and of which model. */
export interface ExtractPlan {
  prompt?: string;
  given?: CheckedSchema;
  provider: Provider;
}

export interface ExtractOutcome {
  url: string;
  data: unknown;
  /** The schema made from the prompt, when the request had none. */
  generatedSchema?: JsonSchema;
  /** The model that answered, and its provider's plugin id. */
  model: string;
  provider: string;
  usage: LlmUsage;
  /** Parts of the page left out, a merge that needed the schema's second look. */
  warnings: string[];
  /** The page came from the scrape cache. */
  cached: boolean;
  /** Milliseconds spent on the page (`scrape`) and on the model (`llm`, a generated schema included). */
  timings: Record<string, number>;
}

const SYSTEM_PROMPT =
  'You extract data from a web page into JSON. Use only what the page says and never invent values: ' +
  "give null for a value the page does not state and an empty list when it lists nothing. Keep the page's wording for names and quotes.";
/** The start of the page shown when planning a schema. */
const PLANNING_TOKENS = 1500;
const PLANNING_ANSWER_TOKENS = 1024;

export class ExtractService {
  constructor(private readonly deps: { scraper: Scraper; llm: LlmService }) {}

  /** `name` is how the caller's wire format names request fields, for messages. */
  async extract(
    request: ExtractRequest,
    workspace: string,
    signal?: AbortSignal,
    name: FieldNamer = internalNames,
  ): Promise<ExtractOutcome> {
    const plan = this.plan(request, name);
    const started = performance.now();
    const page = await scrapeFor(
      this.deps.scraper,
      {
        url: request.url,
        formats: ['llm'],
        onlyMainContent: request.onlyMainContent || undefined,
        noCache: request.noCache,
        timeoutMs: request.timeoutMs,
      },
      workspace,
      signal,
      name,
    );
    const scraped = performance.now();
    const extracted = await this.fromText(String(page.result.formats.llm ?? ''), plan, signal);
    const timings = { scrape: Math.round(scraped - started), llm: Math.round(performance.now() - scraped) };
    return { url: page.result.url, ...extracted, cached: page.cached, timings };
  }

  /**
   * What can be checked before any page is read: a prompt or a schema, the schema itself, a
   * configured model. Throws the 400 or 503 that says which.
   */
  plan(request: { prompt?: string; schema?: Record<string, unknown> }, name: FieldNamer = internalNames): ExtractPlan {
    if (!request.prompt && request.schema === undefined)
      throw badRequest(`Missing required field: ${name('prompt')} (or ${name('schema')})`);
    const given =
      request.schema !== undefined ? checkedSchema(request.schema, this.deps.llm.settings.maxSchemaBytes, name('schema')) : undefined;
    return { prompt: request.prompt, given, provider: this.deps.llm.require() };
  }

  /** Extracts from a page's text (the `llm` format's shape: a URL and title header, then the content). */
  async fromText(text: string, plan: ExtractPlan, signal?: AbortSignal): Promise<Omit<ExtractOutcome, 'url' | 'cached' | 'timings'>> {
    const { llm } = this.deps;
    const { provider, given } = plan;
    if (!withoutHeader(text)) throw new TrawlError('unprocessable', 'The page has no text to extract from');
    const usage: LlmUsage = { inputTokens: 0, outputTokens: 0 };
    const warnings: string[] = [];
    const schema = given ?? (await this.generateSchema(plan.prompt!, text, provider, usage, signal));
    const count = await llm.counter(provider);
    const instruction = plan.prompt ?? 'Extract the data the schema describes.';
    const overhead = count(SYSTEM_PROMPT) + count(JSON.stringify(schema.schema)) + count(instruction) + 64;
    const { parts, cut } = pageParts(text, llm.inputBudget(provider, overhead), count, llm.settings.maxChunks);
    if (cut) warnings.push(`The page is longer than ${parts.length} parts of the model's context (llm.maxChunks); the rest was left out`);
    let model = '';
    const answers = await mapBounded(parts, provider.handler.concurrency, async (part, index) => {
      const where = parts.length > 1 ? ` (part ${index + 1} of ${parts.length}: extract what this part holds)` : '';
      const generated = await llm.generate({
        messages: [
          { role: 'system', content: SYSTEM_PROMPT },
          { role: 'user', content: `Instruction: ${instruction}\n\nPage${where}:\n${part}` },
        ],
        schema,
        schemaName: 'extraction',
        signal,
      });
      model ||= generated.model;
      usage.inputTokens += generated.usage.inputTokens;
      usage.outputTokens += generated.usage.outputTokens;
      return generated.data;
    });
    const data = mergeParts(answers);
    const mismatch = schema.validate(data);
    if (mismatch)
      throw new TrawlError(
        'unprocessable',
        `The answers for the ${parts.length} parts of the page do not match the schema together: ${mismatch}`,
      );
    return { data, ...(given ? {} : { generatedSchema: schema.schema }), model, provider: provider.id, usage, warnings };
  }

  /** A schema for the prompt, from the model's list of fields. */
  private async generateSchema(
    prompt: string,
    text: string,
    provider: Provider,
    usage: LlmUsage,
    signal?: AbortSignal,
  ): Promise<CheckedSchema> {
    const { llm } = this.deps;
    const start = pageParts(text, PLANNING_TOKENS, await llm.counter(provider), 1).parts[0]!;
    const generated = await llm.generate({
      messages: [
        { role: 'system', content: SCHEMA_SYSTEM_PROMPT },
        { role: 'user', content: `Instruction: ${prompt}\n\nStart of the page:\n${start}` },
      ],
      schema: checkedSchema(FIELD_LIST_SCHEMA, Infinity, 'generated schema'),
      schemaName: 'fields',
      maxOutputTokens: PLANNING_ANSWER_TOKENS,
      signal,
    });
    usage.inputTokens += generated.usage.inputTokens;
    usage.outputTokens += generated.usage.outputTokens;
    return checkedSchema(schemaFromFields(generated.data), Infinity, 'generated schema');
  }
}
