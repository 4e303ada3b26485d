/**
 * The local runtime: a GGUF model file the operator supplies, run in this process by llama.cpp
 * (node-llama-cpp, CPU build only) — no server, no network, no download. Structured output comes
 * from a JSON-schema grammar (grammar.ts) and is still validated by the service. Enabled by
 * setting `modelPath`; a path with no file stops the boot.
 */
import { statSync } from 'node:fs';
import { z } from 'zod';
import { configInvalid, definePlugin } from '../../../core/kit.ts';
import { LocalRuntime } from './runtime.ts';

export const llamaCppLlm = definePlugin({
  kind: 'llm',
  name: 'llama-cpp',
  description: 'A local GGUF model run in process by llama.cpp (node-llama-cpp, CPU); enabled by setting `modelPath`.',
  enabledBy: ['modelPath'],
  options: z.strictObject({
    modelPath: z.string().trim().min(1).optional().describe('Path of the GGUF model file; setting it enables the provider.'),
    threads: z.number().int().min(1).max(256).optional().describe("CPU threads for the model; unset: the machine's cores."),
    contextSize: z
      .number()
      .int()
      .min(512)
      .max(1_048_576)
      .default(4096)
      .describe('Context window in tokens (prompt and answer); memory grows with it. Longer pages are split to fit.'),
    preload: z.boolean().default(true).describe('Load the model at boot rather than on the first request.'),
  }),
  setup(options, ctx) {
    const modelPath = options.modelPath!;
    let isFile = false;
    try {
      isFile = statSync(modelPath).isFile();
    } catch {}
    if (!isFile) throw configInvalid(`Invalid configuration at plugins.llm.llama-cpp.modelPath: no model file at ${modelPath}`);
    const runtime = new LocalRuntime({ modelPath, threads: options.threads, contextSize: options.contextSize }, ctx.logger);
    // A failed load is remembered and reported (/health, each request); it does not stop the boot.
    if (options.preload) runtime.load().catch(() => {});
    return {
      get contextTokens() {
        return runtime.contextSize;
      },
      concurrency: 1,
      // Until the model is loaded its tokenizer is not there: a byte never holds two tokens.
      countTokens: (text) => runtime.countTokens(text) ?? Buffer.byteLength(text),
      complete: (request) => runtime.complete(request),
      status: async () => runtime.status(),
    };
  },
});
