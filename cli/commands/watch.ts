/**
 * `watch …`: page change monitors (the /v1/watch routes): list, create, show, check (waits for the
 * check to finish: checks are jobs), diff, pause/resume and delete. Lists print a table, the rest
 * the /v1 answer as JSON.
 */
import { Command } from 'commander';
import type { Api } from '../client.ts';
import { apiCommand, collect, defined, integer, withApi, type ApiFlags } from '../command.ts';
import { CliError } from '../errors.ts';
import { emit, json } from '../output.ts';
import { table } from './table.ts';

type Flags = ApiFlags & { json?: boolean };
const NAMES = {
  name: '--name',
  interval_minutes: '--interval',
  webhook_url: '--webhook',
  ignore_selectors: '--ignore-selector',
  ignore_text: '--ignore-text',
};
const CHECK_TIMEOUT_MS = 120_000;

const path = (id: string, rest = '') => `/v1/watch/${encodeURIComponent(id)}${rest}`;

/** A subcommand acting on one watch by id. */
const onWatch = (name: string, description: string, work: (api: Api, id: string, flags: Flags) => Promise<unknown>, jobs = false) =>
  apiCommand(name, description)
    .argument('<id>', 'the watch id')
    .action((id: string, flags: Flags) => withApi(flags, async (api) => emit(json(await work(api, id, flags))), jobs));

async function checked(api: Api, id: string): Promise<unknown> {
  const before = await api.call<{ last_checked_at: string | null }>('GET', path(id));
  await api.call('POST', path(id, '/check'));
  for (const deadline = Date.now() + CHECK_TIMEOUT_MS; Date.now() < deadline; await Bun.sleep(300)) {
    const now = await api.call<{ last_checked_at: string | null }>('GET', path(id));
    if (now.last_checked_at !== before.last_checked_at) return now;
  }
  throw new CliError(`The check of watch ${id} did not finish within ${CHECK_TIMEOUT_MS / 1000} s`, 1);
}

export const watchCommand = () =>
  new Command('watch')
    .description('Watch pages for changes: list, create, show, check, diff, pause, resume, delete')
    .addHelpText(
      'after',
      '\nExamples:\n  bun run cli watch create https://example.com/pricing --interval 60\n  bun run cli watch check <id>',
    )
    .addCommand(
      apiCommand('list', 'The watches, as a table')
        .option('--json', 'print the /v1 answer')
        .action((flags: Flags) =>
          withApi(flags, async (api) => {
            const { watches } = await api.call<{ watches: Array<Record<string, any>> }>('GET', '/v1/watch?per_page=100');
            emit(
              flags.json
                ? json(watches)
                : table([
                    ['ID', 'NAME', 'EVERY (MIN)', 'ACTIVE', 'LAST CHECKED'],
                    ...watches.map((w) => [w.id, w.name, String(w.interval_minutes), String(w.active), w.last_checked_at ?? '-']),
                  ]),
            );
          }),
        ),
    )
    .addCommand(
      apiCommand('create', 'Watch a page; prints the new watch')
        .argument('<url>', 'the page')
        .option('--name <name>', 'a name (default: the URL)')
        .option('--interval <minutes>', 'minutes between checks', integer)
        .option('--webhook <url>', 'where to POST changes')
        .option('--ignore-selector <selector>', 'content to leave out of the comparison (repeatable)', collect, [])
        .option('--ignore-text <pattern>', 'text to leave out of the comparison (repeatable)', collect, [])
        .action(
          (
            url: string,
            flags: Flags & { name?: string; interval?: number; webhook?: string; ignoreSelector: string[]; ignoreText: string[] },
          ) =>
            withApi(flags, async (api) =>
              emit(
                json(
                  await api.call(
                    'POST',
                    '/v1/watch',
                    defined({
                      url,
                      name: flags.name,
                      interval_minutes: flags.interval,
                      webhook_url: flags.webhook,
                      ignore_selectors: flags.ignoreSelector,
                      ignore_text: flags.ignoreText,
                    }),
                    NAMES,
                  ),
                ),
              ),
            ),
        ),
    )
    .addCommand(onWatch('show', 'A watch and its recent snapshots', (api, id) => api.call('GET', path(id))))
    .addCommand(onWatch('check', 'Check a watch now and wait for the result', checked, true))
    .addCommand(onWatch('diff', 'What changed between the last two snapshots', (api, id) => api.call('GET', path(id, '/diff'))))
    .addCommand(onWatch('pause', 'Stop scheduled checks', (api, id) => api.call('PATCH', path(id), { active: false })))
    .addCommand(onWatch('resume', 'Resume scheduled checks', (api, id) => api.call('PATCH', path(id), { active: true })))
    .addCommand(onWatch('delete', 'Delete a watch and its snapshots', (api, id) => api.call('DELETE', path(id))));
