/**
 * Registers the job queue in the composition root: the concrete queue (for core services that
 * enqueue inside their own transactions), the same instance as the `JobQueue` contract, and its
 * shared schedule.
 */
import { instanceCachingFactory, type DependencyContainer, type InjectionToken } from 'tsyringe';
import type { Logger } from 'pino';
import type { TrawlConfig } from '../config-schema.ts';
import { MetricsToken } from '../metrics.ts';
import { Tokens } from '../tokens.ts';
import { createJobQueue, type DbJobQueue } from './queue.ts';
import type { Scheduler } from './scheduler.ts';

export const JobTokens = {
  Queue: Symbol('DbJobQueue') as InjectionToken<DbJobQueue>,
  /** The shared schedule features put their recurring subjects on (scheduler.ts). */
  Scheduler: Symbol('Scheduler') as InjectionToken<Scheduler>,
} as const;

export function registerJobQueue(scope: DependencyContainer, config: Readonly<TrawlConfig>, logger: Logger): void {
  scope.register(JobTokens.Queue, {
    useFactory: instanceCachingFactory((c) => {
      const storage = c.resolve(Tokens.Storage);
      return createJobQueue(
        storage.db,
        storage.dialect,
        config.jobs,
        logger.child({ component: 'jobs' }),
        c.isRegistered(MetricsToken, true) ? c.resolve(MetricsToken) : undefined,
      );
    }),
  });
  scope.register(Tokens.Jobs, { useFactory: (c) => c.resolve(JobTokens.Queue) });
  scope.register(JobTokens.Scheduler, { useFactory: (c) => c.resolve(JobTokens.Queue).scheduler });
}
