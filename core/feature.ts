/**
 * The feature-module API: an endpoint family (crawl, map, webhooks, …) declares in one place its
 * config section, migrations, services, job handlers and tokens with `defineFeature`. The explicit
 * list in core/features/index.ts is handed to loadConfig, openStorage and createTrawl, which loop
 * over it; no core file outside core/features imports a feature.
 */
import type { Logger } from 'pino';
import type { InjectionToken } from 'tsyringe';
import type { z } from 'zod';
import type { Migration } from 'kysely/migration';
import type { TrawlConfig } from './config-schema.ts';
import type { CostDeclarations } from './costs.ts';
import type { JobHandler, JobHandlerOptions } from './services.ts';
import type { JobMeter } from './metering.ts';
import type { SlotOptions } from './jobs/scheduler.ts';

/** What a feature's service factories and job handlers see. */
export interface FeatureContext<S> {
  /** The whole frozen config (core sections typed; feature sections through their feature). */
  config: Readonly<TrawlConfig>;
  /** This feature's own section, parsed by its schema. */
  settings: Readonly<S>;
  /** A child logger named after the feature. */
  logger: Logger;
  /** Any registered service: core tokens, other features' tokens. Resolved lazily, once per factory. */
  resolve<T>(token: InjectionToken<T>): T;
  /** Whether some feature registered the token (optional collaborations, e.g. the event bus). */
  has(token: InjectionToken<unknown>): boolean;
}

/** One service under a typed token, built on first resolve and then cached for the instance. */
export interface FeatureService<S> {
  token: InjectionToken<unknown>;
  create(ctx: FeatureContext<S>): unknown;
}

/** One job kind on the core queue and its handler; processes that run workers claim it. */
export interface FeatureJob {
  kind: string;
  handler: JobHandler;
  options?: JobHandlerOptions;
  /** Cloud mode: what one run costs; the shared layer charges it before the handler runs (core/metering.ts). */
  meter?: JobMeter;
  /**
   * Runs as the slots of the shared schedule come due (core/jobs/scheduler.ts): the feature puts its
   * subjects on the schedule under this kind, and the job's payload is `{subject, due}`.
   */
  schedule?: true | SlotOptions;
}

export interface FeatureDefinition<S> {
  /** Lower-case; also the config section's key (`[crawl]`) when the feature has a config schema. */
  name: string;
  description: string;
  /** The section's schema, with every default (`config/default.toml` spells them out for people). */
  config?: z.ZodType<S>;
  /**
   * Migrations by globally unique name, run in name order together with core's and the other
   * features'. New names are `<feature>.<nnnn>_<what>`; a shipped migration never changes.
   */
  migrations?: Readonly<Record<string, Migration>>;
  services?: ReadonlyArray<FeatureService<S>>;
  /** Called once at boot, after plugin setup, to register the feature's job handlers. */
  jobs?(ctx: FeatureContext<S>): FeatureJob[];
  /**
   * Cloud mode: the cost-table units its routes and jobs charge, by `[credits]` key, with their
   * default prices (config/default.toml spells them out); core builds the `[credits]` section from them.
   */
  costs?: CostDeclarations;
  /** The tokens the feature's services are registered under, for routes and other features. */
  tokens?: Readonly<Record<string, InjectionToken<unknown>>>;
}

export interface Feature<S = unknown> extends Readonly<FeatureDefinition<S>> {
  /** The feature's parsed config section, registered in the container for routes that need it. */
  readonly settingsToken: InjectionToken<Readonly<S>>;
  /** Reads the feature's section out of a frozen config (tests and wiring outside the container). */
  settings(config: Readonly<TrawlConfig>): Readonly<S>;
}

// A feature's settings type only matters inside the feature; lists of features erase it.
export type AnyFeature = Feature<any>;

/** A typed service entry: the factory must build what the token promises. */
export function service<T, S = unknown>(token: InjectionToken<T>, create: (ctx: FeatureContext<S>) => T): FeatureService<S> {
  return { token, create };
}

export function defineFeature<S = Record<string, never>>(definition: FeatureDefinition<S>): Feature<S> {
  if (!/^[a-z][a-z0-9-]*$/.test(definition.name)) throw new Error(`Feature name "${definition.name}" must be lower-case kebab-case`);
  const { name } = definition;
  return Object.freeze({
    ...definition,
    settingsToken: Symbol(`${name}.settings`) as InjectionToken<Readonly<S>>,
    settings: (config: Readonly<TrawlConfig>) => (config[name] ?? {}) as Readonly<S>,
  });
}
