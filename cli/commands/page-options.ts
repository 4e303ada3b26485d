/**
 * The scrape options that scrape, crawl and batch share (`--format`, `--main`, `--include`,
 * `--exclude`, `--no-cache`, `--json`), how they become the /v1 scrape fields, and the flags that
 * name those fields in the API's messages.
 */
import type { Command } from 'commander';
import { collect, defined } from '../command.ts';
import type { FlagNames } from '../errors.ts';

export interface PageFlags {
  format: string[];
  main?: boolean;
  include: string[];
  exclude: string[];
  cache: boolean;
  json?: boolean;
}

export function pageOptions(command: Command): Command {
  return command
    .option('-f, --format <format>', 'markdown (default), text, html, rawHtml, links, json, … (repeatable)', collect, [])
    .option('--main', 'only the main content, without navigation, headers and footers')
    .option('--include <selector>', 'a CSS selector of the content to keep (repeatable)', collect, [])
    .option('--exclude <selector>', 'a CSS selector of content to remove (repeatable)', collect, [])
    .option('--no-cache', 'fetch afresh instead of answering from the cache')
    .option('--json', 'print the whole answer as JSON');
}

/** The formats asked for; markdown when none. */
export const formatsOf = (flags: PageFlags) => (flags.format.length ? flags.format : ['markdown']);

/** The /v1 scrape fields the page flags set. */
export function scrapeFields(flags: PageFlags) {
  return defined({
    formats: formatsOf(flags),
    only_main_content: flags.main === true,
    include_selectors: flags.include,
    exclude_selectors: flags.exclude,
    no_cache: flags.cache === false ? true : undefined,
  });
}

/** The flags of the scrape fields, under `prefix` when they are nested (`scrape_options.`). */
export function pageFlagNames(prefix = ''): FlagNames {
  const names: Record<string, string> = {
    formats: '--format',
    only_main_content: '--main',
    include_selectors: '--include',
    exclude_selectors: '--exclude',
    no_cache: '--no-cache',
  };
  return Object.fromEntries(Object.entries(names).map(([field, flag]) => [`${prefix}${field}`, flag]));
}
