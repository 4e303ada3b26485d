/**
 * What the CLI's commands share: the `--api`/`--api-key` options (with TRAWL_API_URL and
 * TRAWL_API_KEY), value parsers that refuse bad text with a one-line error, and running a
 * command's work against the API it chose, closing it afterwards.
 */
import { Command, InvalidArgumentError, Option } from 'commander';
import { openApi, type Api } from './client.ts';

export interface ApiFlags {
  api?: string;
  apiKey?: string;
}

/** A command that talks to Trawl: in process unless `--api` (or TRAWL_API_URL) names a server. */
export function apiCommand(name: string, description: string): Command {
  return new Command(name)
    .description(description)
    .addOption(new Option('--api <url>', 'a running Trawl server to use instead of running in this process').env('TRAWL_API_URL'))
    .addOption(new Option('--api-key <key>', 'the API key for --api').env('TRAWL_API_KEY'));
}

/** Opens the API the flags point at, runs `work` with it and closes it, whatever happened. */
export async function withApi(flags: ApiFlags, work: (api: Api) => Promise<void>, jobs = false): Promise<void> {
  const api = await openApi({ api: flags.api, apiKey: flags.apiKey, jobs });
  try {
    await work(api);
  } finally {
    await api.close();
  }
}

/** A whole number option (`--max-pages 10`); the API checks the range and the message names the flag. */
export function integer(value: string): number {
  if (!/^-?\d+$/.test(value.trim())) throw new InvalidArgumentError('expected a whole number');
  return Number(value);
}

/** A repeatable option's values in order (`-f markdown -f links`). */
export const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

/** Drops unset fields, so the request carries only what the user gave (the API's defaults apply). */
export function defined<T extends Record<string, unknown>>(body: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(body).filter(([, value]) => value !== undefined && !(Array.isArray(value) && value.length === 0)),
  ) as Partial<T>;
}
