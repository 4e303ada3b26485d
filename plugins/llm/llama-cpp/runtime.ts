/**
 * The in-process model: node-llama-cpp on its CPU build (`gpu: false`, `build: "never"`,
 * `skipDownload`: nothing is compiled or downloaded, ever), a GGUF file the operator supplies,
 * one context with one sequence, so calls take turns. Loading starts at boot (or on first use)
 * and its state — not loaded, loading, loaded, failed — is what /health shows. A call runs the
 * conversation through the model's chat template with a JSON-schema grammar; the model's own
 * tokenizer counts tokens once it is loaded.
 */
import { statSync } from 'node:fs';
import { basename } from 'node:path';
import type { Logger } from 'pino';
import type { ChatHistoryItem, Llama, LlamaContext, LlamaContextSequence, LlamaGrammar, LlamaModel } from 'node-llama-cpp';
import { TrawlError } from '../../../core/kit.ts';
import type { LlmAnswer, LlmRequest, LlmStatus } from '../../../core/kit.ts';
import { grammarSchema } from './grammar.ts';

export interface RuntimeOptions {
  modelPath: string;
  /** CPU threads; unset: node-llama-cpp's choice (the machine's cores). */
  threads?: number;
  contextSize: number;
}

type LoadState = 'not loaded' | 'loading' | 'loaded' | 'failed';

interface Loaded {
  llama: Llama;
  model: LlamaModel;
  context: LlamaContext;
  sequence: LlamaContextSequence;
}

/** Grammars kept compiled (building one costs milliseconds; requests repeat schemas). */
const GRAMMAR_CACHE = 32;

export class LocalRuntime {
  private state: LoadState = 'not loaded';
  private error?: string;
  private loadMs?: number;
  private loading?: Promise<Loaded>;
  private handles?: Loaded;
  private turn: Promise<unknown> = Promise.resolve();
  private readonly grammars = new Map<string, Promise<LlamaGrammar>>();

  constructor(
    private readonly options: RuntimeOptions,
    private readonly logger: Logger,
  ) {}

  get modelName(): string {
    return basename(this.options.modelPath);
  }

  /** Loads once; later calls share the same load (or its failure). */
  load(): Promise<Loaded> {
    this.loading ??= this.open();
    return this.loading;
  }

  private async open(): Promise<Loaded> {
    this.state = 'loading';
    const started = performance.now();
    try {
      const { getLlama, LlamaLogLevel } = await import('node-llama-cpp');
      const llama = await getLlama({
        gpu: false,
        build: 'never',
        usePrebuiltBinaries: true,
        skipDownload: true,
        progressLogs: false,
        logLevel: LlamaLogLevel.warn,
        logger: (level, message) =>
          this.logger[level === LlamaLogLevel.error || level === LlamaLogLevel.fatal ? 'error' : 'warn']({ level }, message.trim()),
      });
      const model = await llama.loadModel({ modelPath: this.options.modelPath, gpuLayers: 0 });
      const context = await model.createContext({
        contextSize: this.options.contextSize,
        sequences: 1,
        ...(this.options.threads ? { threads: this.options.threads } : {}),
      });
      this.loadMs = Math.round(performance.now() - started);
      this.state = 'loaded';
      this.logger.info({ model: this.modelName, ms: this.loadMs, contextSize: context.contextSize }, 'local model loaded');
      this.handles = { llama, model, context, sequence: context.getSequence() };
      return this.handles;
    } catch (err) {
      this.state = 'failed';
      this.error = (err as Error).message;
      this.logger.error({ err, model: this.options.modelPath }, 'local model could not be loaded');
      throw err;
    }
  }

  private async loaded(): Promise<Loaded> {
    try {
      return await this.load();
    } catch {
      throw new TrawlError('unavailable', `the model ${this.modelName} could not be loaded: ${this.error}`);
    }
  }

  /** Exact once the model is loaded, else undefined (the caller estimates). */
  countTokens(text: string): number | undefined {
    return this.handles?.model.tokenize(text).length;
  }

  /** The context's real size once loaded (the file may allow less than asked). */
  get contextSize(): number {
    return this.handles?.context.contextSize ?? this.options.contextSize;
  }

  private grammar(llama: Llama, schema: Record<string, unknown>): Promise<LlamaGrammar> {
    const key = JSON.stringify(schema);
    let grammar = this.grammars.get(key);
    if (!grammar) {
      grammar = llama.createGrammarForJsonSchema(grammarSchema(schema) as never) as Promise<LlamaGrammar>;
      grammar.catch(() => this.grammars.delete(key));
      if (this.grammars.size >= GRAMMAR_CACHE) this.grammars.delete(this.grammars.keys().next().value!);
      this.grammars.set(key, grammar);
    }
    return grammar;
  }

  async complete(request: LlmRequest): Promise<LlmAnswer> {
    const { llama, sequence } = await this.loaded();
    const grammar = request.schema ? await this.grammar(llama, request.schema) : undefined;
    // One sequence: calls take turns; a failed call does not block the next.
    const run = this.turn.then(() => this.generate(sequence, request, grammar));
    this.turn = run.catch(() => {});
    return run;
  }

  private async generate(sequence: LlamaContextSequence, request: LlmRequest, grammar?: LlamaGrammar): Promise<LlmAnswer> {
    request.signal.throwIfAborted();
    const { LlamaChatSession } = await import('node-llama-cpp');
    const messages = request.messages;
    const last = messages.at(-1);
    if (last?.role !== 'user') throw new TrawlError('internal', 'a conversation for the local model must end with a user message');
    const history: ChatHistoryItem[] = messages
      .slice(0, -1)
      .map(
        (m): ChatHistoryItem =>
          m.role === 'system'
            ? { type: 'system', text: m.content }
            : m.role === 'user'
              ? { type: 'user', text: m.content }
              : { type: 'model', response: [m.content] },
      );
    const before = { input: sequence.tokenMeter.usedInputTokens, output: sequence.tokenMeter.usedOutputTokens };
    const session = new LlamaChatSession({ contextSequence: sequence, autoDisposeSequence: false });
    try {
      // The chat wrapper adds its own system prompt unless the history brings one.
      session.setChatHistory(history.length ? history : [{ type: 'system', text: '' }]);
      const answer = await session.promptWithMeta(last.content, {
        grammar,
        maxTokens: request.maxOutputTokens,
        temperature: request.temperature ?? 0,
        signal: request.signal,
      });
      return {
        text: answer.responseText,
        truncated: answer.stopReason === 'maxTokens',
        usage: {
          inputTokens: sequence.tokenMeter.usedInputTokens - before.input,
          outputTokens: sequence.tokenMeter.usedOutputTokens - before.output,
        },
        model: this.modelName,
      };
    } finally {
      session.dispose({ disposeSequence: false });
      // The next call starts from an empty context.
      await sequence.clearHistory();
    }
  }

  status(): LlmStatus {
    const runtime = {
      state: this.state,
      contextSize: this.options.contextSize,
      threads: this.options.threads ?? 'auto',
      ...(this.loadMs !== undefined ? { loadMs: this.loadMs } : {}),
    };
    const model = this.modelName;
    let exists = false;
    try {
      exists = statSync(this.options.modelPath).isFile();
    } catch {}
    if (!exists) return { status: 'model missing', model, detail: `no file at ${this.options.modelPath}`, runtime };
    if (this.state === 'failed')
      return { status: 'error', model, detail: `the model could not be loaded: ${this.error}`, runtime: { ...runtime, error: this.error } };
    // Not loaded yet (no preload): it loads on first use.
    return { status: this.state === 'loading' ? 'loading' : 'ok', model, runtime };
  }
}
