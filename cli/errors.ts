/**
 * The CLI's failures and their exit codes: 2 for what the user must change (a bad flag, a refused
 * request, bad configuration), 1 for work that failed. Every failure is printed as one line, never
 * as a stack: the message says what to fix.
 */
import { TrawlError } from '../core/errors.ts';

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2,
  ) {
    super(message);
  }
}

/** How a command's flags name the request fields they set: `num_results` → `--num`. */
export type FlagNames = Readonly<Record<string, string>>;

/**
 * The API's message with the request fields it names (`Invalid field num_results: …`,
 * `Missing required field: urls`, `scrape_options.formats[0]`) renamed to the flags that set them.
 */
export function namedByFlags(message: string, flags: FlagNames): string {
  return message.replace(/(\bfields?:? )([A-Za-z_][\w.]*)/g, (whole, lead: string, path: string) => {
    for (let parts = path.split('.'); parts.length; parts.pop()) {
      const flag = flags[parts.join('.')];
      if (flag) return `${lead}${flag}${path.slice(parts.join('.').length)}`;
    }
    return whole;
  });
}

/** Anything thrown, as the one line and exit code the CLI ends with. */
export function failure(err: unknown): { message: string; exitCode: number } {
  if (err instanceof CliError) return { message: err.message, exitCode: err.exitCode };
  if (err instanceof TrawlError) {
    // Configuration is the user's to fix; other errors reaching here are the work failing.
    return { message: err.message.split('\n')[0]!, exitCode: err.code === 'config_invalid' || err.status === 400 ? 2 : 1 };
  }
  return { message: `Unexpected error: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`, exitCode: 1 };
}
