/**
 * The language-model service, registered by core (core/container.ts) for the model formats, the
 * extract and summarize engines and the features that ask a model: picks the provider
 * (`llm.provider`, else the first enabled `llm` plugin), asks it under `llm.timeoutMs`, waits out
 * one short rate limit (its Retry-After), and — with a schema — checks the answer: it must parse as
 * JSON and match the schema. An answer that does not, or that was cut off at the token limit, is
 * sent back once with what was wrong; a second bad answer is a 422. Provider failures are 502,
 * a provider that does not answer in time 504, a long rate limit or no provider at all 503.
 */
import type { Logger } from 'pino';
import { configInvalid, TrawlError } from '../errors.ts';
import type { JsonSchema, LlmAnswer, LlmHandler, LlmMessage, LlmUsage } from './provider.ts';
import type { PluginRegistry } from '../registry.ts';
import { o200kCounter, type TokenCounter } from './chunks.ts';
import type { LlmSettings } from './config.ts';
import { LlmHealth, type LlmHealthReport } from './health.ts';

export interface Provider {
  id: string;
  handler: LlmHandler;
}

/** A schema checked and compiled by checkedSchema (schema.ts). */
export interface CheckedSchema {
  schema: JsonSchema;
  validate(data: unknown): string | null;
}

export interface GenerateRequest {
  messages: LlmMessage[];
  /** The answer must be JSON matching it. */
  schema?: CheckedSchema;
  schemaName?: string;
  /** Default `llm.maxOutputTokens`. */
  maxOutputTokens?: number;
  /** The caller's signal (a request that went away, a scrape's deadline). */
  signal?: AbortSignal;
}

export interface Generated {
  text: string;
  /** The answer as validated JSON, when a schema was given. */
  data?: unknown;
  usage: LlmUsage;
  model: string;
  /** Plugin id of the provider that answered. */
  provider: string;
}

/** What a model is told before its second try. */
const RETRY_INSTRUCTION = 'Answer again with only the JSON object, complete and matching the schema.';
/** The bad answer quoted back is cut to this many characters. */
const QUOTED_ANSWER_CHARS = 4000;
/** Tokens kept free besides prompt and answer (message framing, rounding of estimates). */
const MARGIN_TOKENS = 128;

const addUsage = (total: LlmUsage, more: LlmUsage) => {
  total.inputTokens += more.inputTokens;
  total.outputTokens += more.outputTokens;
};

/** The answer as JSON: the provider's, or the text parsed (a Markdown code fence around it tolerated). */
function parseAnswer(answer: LlmAnswer): { data?: unknown; problem?: string } {
  if (answer.json !== undefined) return { data: answer.json };
  const text = answer.text.trim().replace(/^```(?:json)?\s*\n([\s\S]*?)\n?```$/, '$1');
  try {
    return { data: JSON.parse(text) };
  } catch (err) {
    return { problem: `is not valid JSON (${(err as Error).message})` };
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', stop, { once: true });
  });
}

/** The messages with the schema stated in the system message (structured output binds the form; this tells the model the meaning). */
function withSchema(messages: LlmMessage[], schema: JsonSchema): LlmMessage[] {
  const note = `Answer with one JSON value only, no other text, matching this JSON Schema:\n${JSON.stringify(schema)}`;
  const system = messages.findIndex((m) => m.role === 'system');
  if (system === -1) return [{ role: 'system', content: note }, ...messages];
  return messages.map((m, i) => (i === system ? { ...m, content: `${m.content}\n\n${note}` } : m));
}

export class LlmService {
  /** Provider names in the order they are chosen from. */
  private readonly order: string[];
  private readonly statuses: LlmHealth;

  constructor(private readonly deps: { registry: PluginRegistry; settings: Readonly<LlmSettings>; logger: Logger }) {
    const installed = deps.registry.all().filter((p) => p.definition.kind === 'llm');
    const chosen = deps.settings.provider;
    if (chosen !== undefined) {
      const plugin = installed.find((p) => p.definition.name === chosen);
      if (!plugin)
        throw configInvalid(
          `Invalid configuration at llm.provider: unknown language-model provider "${chosen}" (installed: ${installed.map((p) => p.definition.name).join(', ')})`,
        );
      if (!plugin.enabled)
        throw configInvalid(`Invalid configuration at llm.provider: ${plugin.id} is not enabled (${this.howToEnable(plugin.definition)})`);
    }
    this.order = chosen !== undefined ? [chosen] : installed.map((p) => p.definition.name);
    this.statuses = new LlmHealth(deps.registry, deps.settings);
    // With a model configured, the estimate's tables load now rather than in the first request.
    if (this.order.some((name) => deps.registry.all().some((p) => p.enabled && p.definition.kind === 'llm' && p.definition.name === name)))
      void o200kCounter();
  }

  /** Every installed provider for /health, configured ones with what they answered. */
  health(): Promise<LlmHealthReport> {
    return this.statuses.report(this.provider()?.id ?? null);
  }

  get settings(): Readonly<LlmSettings> {
    return this.deps.settings;
  }

  /** The provider that answers, or null when none is configured. */
  provider(): Provider | null {
    const active = this.deps.registry.active('llm');
    for (const name of this.order) {
      const found = active.find((p) => p.definition.name === name);
      if (found) return { id: found.id, handler: found.handler };
    }
    return null;
  }

  /** The provider, or a 503 saying what to configure. */
  require(): Provider {
    const provider = this.provider();
    if (provider) return provider;
    const ways = this.deps.registry
      .all()
      .filter((p) => p.definition.kind === 'llm')
      .map((p) => this.howToEnable(p.definition));
    throw new TrawlError('unavailable', `No language model is configured: set ${ways.join(', or ')}`);
  }

  private howToEnable(definition: { name: string; enabledBy?: readonly string[] }): string {
    return definition.enabledBy?.length
      ? definition.enabledBy.map((o) => `plugins.llm.${definition.name}.${o}`).join(' and ')
      : `plugins.llm.${definition.name} = true`;
  }

  /** Tokens of a text as the provider counts them (or an estimate). */
  async counter(provider: Provider): Promise<TokenCounter> {
    return provider.handler.countTokens?.bind(provider.handler) ?? (await o200kCounter());
  }

  /** Tokens of page text that fit one call beside `promptTokens` of instructions and the answer. */
  inputBudget(provider: Provider, promptTokens: number, maxOutputTokens = this.settings.maxOutputTokens): number {
    const budget = provider.handler.contextTokens - maxOutputTokens - promptTokens - MARGIN_TOKENS;
    if (budget < 256) {
      // The operator's setting, not the request, is at fault: say what to change.
      throw new TrawlError(
        'unavailable',
        `${provider.id}: a context of ${provider.handler.contextTokens} tokens leaves no room for the page beside a ${maxOutputTokens}-token answer; raise the provider's context size or lower llm.maxOutputTokens`,
      );
    }
    return budget;
  }

  async generate(request: GenerateRequest): Promise<Generated> {
    const provider = this.require();
    const { timeoutMs } = this.settings;
    const deadline = AbortSignal.timeout(timeoutMs);
    const signal = request.signal ? AbortSignal.any([request.signal, deadline]) : deadline;
    const first = request.schema ? withSchema(request.messages, request.schema.schema) : request.messages;
    const usage: LlmUsage = { inputTokens: 0, outputTokens: 0 };
    let messages = first;
    for (let attempt = 1; ; attempt++) {
      const answer = await this.call(
        provider,
        {
          messages,
          schema: request.schema?.schema,
          schemaName: request.schema ? (request.schemaName ?? 'answer') : undefined,
          maxOutputTokens: request.maxOutputTokens ?? this.settings.maxOutputTokens,
          signal,
        },
        request.signal,
        Date.now() + timeoutMs,
      );
      addUsage(usage, answer.usage);
      const done = { text: answer.text, usage, model: answer.model, provider: provider.id };
      if (!request.schema) return done;
      const parsed = answer.truncated
        ? { problem: `was cut off at the token limit (${request.maxOutputTokens ?? this.settings.maxOutputTokens} tokens)` }
        : parseAnswer(answer);
      const mismatch = parsed.problem ? null : request.schema.validate(parsed.data);
      const problem = parsed.problem ?? (mismatch ? `does not match the schema: ${mismatch}` : undefined);
      if (!problem) return { ...done, data: parsed.data };
      this.deps.logger.debug({ provider: provider.id, attempt, problem }, 'model answer refused');
      if (attempt === 2)
        throw new TrawlError('unprocessable', `The model's answer ${problem} (${provider.id}, ${answer.model}; after one retry)`);
      const quoted = answer.text.length > QUOTED_ANSWER_CHARS ? `${answer.text.slice(0, QUOTED_ANSWER_CHARS)}…` : answer.text;
      messages = [
        ...first,
        { role: 'assistant', content: quoted },
        { role: 'user', content: `Your answer ${problem}. ${answer.truncated ? 'Be briefer. ' : ''}${RETRY_INSTRUCTION}` },
      ];
    }
  }

  /** One answer from the provider, after at most one wait for a short rate limit. */
  private async call(
    provider: Provider,
    request: Parameters<LlmHandler['complete']>[0],
    caller: AbortSignal | undefined,
    deadlineAt: number,
  ): Promise<LlmAnswer> {
    // The caller's own reason (a scrape's deadline, a client gone) wins over ours.
    const stopped = () =>
      caller?.aborted
        ? caller.reason
        : new TrawlError('gateway_timeout', `${provider.id} did not answer within ${this.settings.timeoutMs} ms (llm.timeoutMs)`);
    let waited = false;
    for (;;) {
      try {
        return await provider.handler.complete(request);
      } catch (err) {
        if (request.signal.aborted || Date.now() >= deadlineAt) throw stopped();
        const error = err instanceof TrawlError ? err : new TrawlError('bad_gateway', (err as Error)?.message ?? String(err));
        const message = `${provider.id}: ${error.message}`;
        const wait = error.retryAfterSeconds;
        if (wait === undefined) throw new TrawlError(error.code, message, { cause: err });
        if (waited || wait > this.settings.maxRetryWaitSeconds || Date.now() + wait * 1000 >= deadlineAt) {
          throw new TrawlError('unavailable', message, { retryAfterSeconds: wait, cause: err });
        }
        this.deps.logger.info({ provider: provider.id, seconds: wait }, 'language model rate limited; waiting');
        await sleep(wait * 1000, request.signal).catch(() => {
          throw stopped();
        });
        waited = true;
      }
    }
  }
}
