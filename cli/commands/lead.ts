/**
 * `lead <url>`: one company site as an enriched lead (POST /v1/lead, JSON). `lead batch <url…>`:
 * up to 25 sites as one job (POST /v1/lead/batch), followed with progress, then every URL's lead
 * or error as JSON; `--no-wait` prints the batch id.
 */
import { apiCommand, defined, withApi, type ApiFlags } from '../command.ts';
import { CliError } from '../errors.ts';
import { follow, type JobStatus } from '../follow.ts';
import { emit, json } from '../output.ts';
import { urlList } from './runs.ts';

type Flags = ApiFlags & { out?: string; cache: boolean };

const leadBatchCommand = () =>
  apiCommand('batch', 'Enrich up to 25 company sites as one job, with progress (JSON)')
    .argument('[urls...]', 'the sites')
    .option('--file <file>', 'read URLs from a file, one a line (- for stdin)')
    .option('--webhook <url>', 'where to POST lead.batch.completed')
    .option('--no-cache', 'fetch the pages afresh')
    .option('--no-wait', 'print the batch id and return; the batch goes on')
    .option('--no-progress', 'no progress on stderr')
    .option('-o, --out <file>', 'write to a file instead of stdout')
    .addHelpText('after', '\nExample:\n  bun run cli lead batch https://a.example https://b.example > leads.json')
    .action((urls: string[], flags: Flags & { file?: string; webhook?: string; wait: boolean; progress: boolean }) =>
      withApi(
        flags,
        async (api) => {
          const body = defined({ urls: urlList(urls, flags.file), webhook_url: flags.webhook, no_cache: flags.cache ? undefined : true });
          const { id } = await api.call<{ id: string }>('POST', '/v1/lead/batch', body, { urls: '<urls>', webhook_url: '--webhook' });
          if (!flags.wait) return emit(id, flags.out);
          await follow<JobStatus>(api, {
            path: `/v1/lead/batch/${id}`,
            finished: (status) => status === 'completed',
            label: 'lead batch',
            unit: 'sites',
            show: flags.progress,
          });
          const batch = await api.call<JobStatus & { data: Array<{ url: string; error?: string }> }>('GET', `/v1/lead/batch/${id}`);
          for (const item of batch.data) if (item.error) process.stderr.write(`failed: ${item.url}: ${item.error}\n`);
          emit(json(batch), flags.out);
          if (batch.completed === 0 && batch.failed > 0) throw new CliError('No site could be read', 1);
        },
        true,
      ),
    );

export const leadCommand = () =>
  apiCommand('lead', 'Turn a company site into a lead: name, contacts, socials (JSON)')
    .argument('<url>', "the company's site")
    .option('--no-cache', 'fetch the pages afresh')
    .option('-o, --out <file>', 'write to a file instead of stdout')
    .addHelpText('after', '\nExamples:\n  bun run cli lead https://example.com\n  bun run cli lead batch --file companies.txt')
    .addCommand(leadBatchCommand())
    .action((url: string, flags: Flags) =>
      withApi(flags, async (api) =>
        emit(json(await api.call('POST', '/v1/lead', defined({ url, no_cache: flags.cache ? undefined : true }))), flags.out),
      ),
    );
