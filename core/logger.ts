/**
 * Structured JSON logging (pino). One root logger per Trawl instance; plugins get children. Every
 * line written while a request (or a job it started) is being served carries its `request_id`:
 * the id lives in an AsyncLocalStorage context that the HTTP edge opens per request and the job
 * queue reopens per job, so no call path has to pass it along.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import pino, { type DestinationStream, type Logger } from 'pino';

/** Keys (API, admin) never reach a log line, even inside a logged object. */
const REDACT = ['apiKey', 'adminKey', 'key', 'token', '*.token', 'headers.authorization', '*.authorization', '*.apiKey', '*.adminKey', '*.key'];

const requestContext = new AsyncLocalStorage<{ requestId: string }>();

/** The id of the request the current work was started by, if any. */
export const currentRequestId = (): string | undefined => requestContext.getStore()?.requestId;

/** Runs `work` as part of the request `requestId` (its logs, the jobs it enqueues); without an id, as it is. */
export function withRequestId<T>(requestId: string | null | undefined, work: () => T): T {
  return requestId ? requestContext.run({ requestId }, work) : work();
}

/** `destination`: where lines go instead of stdout (tests read them; the stdio MCP server writes to stderr). */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = {
    level,
    base: { service: 'trawl' },
    redact: { paths: REDACT, censor: '[redacted]' },
    mixin: () => {
      const requestId = currentRequestId();
      return requestId ? { request_id: requestId } : {};
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
