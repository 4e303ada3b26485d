/** Structured JSON logging (pino). One root logger per Trawl instance; plugins get children. */
import pino, { type DestinationStream, type Logger } from 'pino';

/** Keys (API, admin) never reach a log line, even inside a logged object. */
const REDACT = ['apiKey', 'adminKey', 'key', 'headers.authorization', '*.authorization', '*.apiKey', '*.adminKey', '*.key'];

/** `destination`: where lines go instead of stdout (tests read them). */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = { level, base: { service: 'trawl' }, redact: { paths: REDACT, censor: '[redacted]' } };
  return destination ? pino(options, destination) : pino(options);
}
