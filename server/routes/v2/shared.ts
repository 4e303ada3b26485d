/**
 * What every /v2 route module shares: the error envelope they declare (server/wire/v2/errors.ts),
 * and the public address absolute URLs in answers start with (`server.publicUrl`, else the
 * address the request came to).
 */
import type { TrawlConfig } from '../../../core/config-schema.ts';
import { presentV2Error } from '../../wire/v2/errors.ts';

export const V2_ERRORS = { prefix: '/v2/', present: presentV2Error };

export function publicBase(config: Readonly<TrawlConfig>, request: Request): string {
  return (config.server.publicUrl ?? new URL(request.url).origin).replace(/\/+$/, '');
}

/** The answer's `warning`, when there is something to say. */
export const warningOf = (warnings: readonly string[]) => (warnings.length ? { warning: warnings.join('; ') } : {});
