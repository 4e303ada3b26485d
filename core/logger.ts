/** Structured JSON logging (pino). One root logger per Trawl instance; plugins get children. */
import pino, { type Logger } from 'pino';

export function createLogger(level: string): Logger {
  return pino({ level, base: { service: 'trawl' }, redact: { paths: ['apiKey', 'headers.authorization', '*.authorization'], censor: '[redacted]' } });
}
