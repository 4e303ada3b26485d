/**
 * The tokens of core's language-model services, in a module of their own: the model formats import
 * them in content workers too, where the services and their dependencies must not be loaded.
 */
import type { InjectionToken } from 'tsyringe';
import type { ExtractService } from './extract/service.ts';
import type { LlmService } from './service.ts';
import type { SummarizeService } from './summarize/service.ts';

export const LlmTokens = {
  /** The provider choice, structured answers, token budgets and the providers' health. */
  Service: Symbol('LlmService') as InjectionToken<LlmService>,
  /** A page's text to JSON matching a schema (POST /v1/extract, the `extract` format). */
  Extract: Symbol('ExtractService') as InjectionToken<ExtractService>,
  /** A page's summary, by the model or extractive (POST /v1/summarize, the `summary` format). */
  Summarize: Symbol('SummarizeService') as InjectionToken<SummarizeService>,
} as const;
