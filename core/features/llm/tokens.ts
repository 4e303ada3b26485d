/**
 * The llm feature's token, in a module of its own: the query format imports it in content workers
 * too, where the service and its dependencies must not be loaded.
 */
import type { InjectionToken } from 'tsyringe';
import type { LlmService } from './service.ts';

export const LlmTokens = {
  Service: Symbol('LlmService') as InjectionToken<LlmService>,
} as const;
