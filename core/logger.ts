/**
 * Structured logging (pino). One root logger per Trawl instance; plugins get children. Every
 * line written while a request (or a job it started) is being served carries its `request_id`:
 * the id lives in an AsyncLocalStorage context that the HTTP edge opens per request and the job
 * queue reopens per job, so no call path has to pass it along. Lines are JSON for collectors, or
 * pino-pretty's one readable line each for a person at a terminal (`log.format`).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import pino, { type DestinationStream, type Logger } from 'pino';
import pretty from 'pino-pretty';

/** `auto`: pretty when the lines go to a terminal, JSON otherwise (a container, a pipe, a file). */
export type LogFormat = 'auto' | 'json' | 'pretty';

/** Keys (API, admin) never reach a log line, even inside a logged object. */
const REDACT = [
  'apiKey',
  'adminKey',
  'key',
  'token',
  '*.token',
  'headers.authorization',
  '*.authorization',
  '*.apiKey',
  '*.adminKey',
  '*.key',
];

const requestContext = new AsyncLocalStorage<{ requestId: string }>();

/** The id of the request the current work was started by, if any. */
export const currentRequestId = (): string | undefined => requestContext.getStore()?.requestId;

/** Runs `work` as part of the request `requestId` (its logs, the jobs it enqueues); without an id, as it is. */
export function withRequestId<T>(requestId: string | null | undefined, work: () => T): T {
  return requestId ? requestContext.run({ requestId }, work) : work();
}

/** Whether `format` means readable lines for output going to file descriptor `fd`. */
export function prettyLogs(format: LogFormat, fd = 1): boolean {
  if (format !== 'auto') return format === 'pretty';
  return Boolean((fd === 2 ? process.stderr : process.stdout).isTTY);
}

/**
 * `destination`: where lines go instead of stdout (tests read them; the stdio MCP server writes to
 * stderr), JSON unless `format` is `pretty`.
 */
export function createLogger(level: string, destination?: DestinationStream, format: LogFormat = 'json'): Logger {
  const options = {
    level,
    base: { service: 'trawl' },
    redact: { paths: REDACT, censor: '[redacted]' },
    mixin: () => {
      const requestId = currentRequestId();
      return requestId ? { request_id: requestId } : {};
    },
  };
  const readable = destination ? format === 'pretty' : prettyLogs(format);
  if (readable)
    return pino(
      options,
      pretty({
        destination: destination ?? 1,
        sync: true,
        singleLine: true,
        ignore: 'pid,hostname,service',
        translateTime: 'SYS:HH:MM:ss.l',
      }),
    );
  return destination ? pino(options, destination) : pino(options);
}
