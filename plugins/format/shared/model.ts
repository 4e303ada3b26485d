/**
 * Core's language-model services as format plugins reach them: resolved on first use on the server
 * thread (content workers, where `render` runs, have no services), null when one is not
 * registered; and the 400 a format that needs a language model gives without one.
 */
import type { InjectionToken } from 'tsyringe';
import type { LlmService, PluginContext } from '../../../core/kit.ts';

export function lazyService<T>(ctx: PluginContext, token: InjectionToken<T>): () => T | null {
  let service: T | null | undefined;
  return () => {
    if (service === undefined) {
      try {
        service = ctx.resolve(token);
      } catch {
        service = null;
      }
    }
    return service;
  };
}

/** The 400 message of a format that cannot run without a model, or null when one is configured. */
export function needsModel(llm: LlmService | null, format: string): string | null {
  return llm?.provider()
    ? null
    : `Format "${format}" needs a language model: configure one under [plugins.llm.*] (OpenAI-compatible, Ollama, Gemini or a local GGUF model)`;
}
