/** `scrape <url>`: one page through the pipeline (POST /v1/scrape), printed as the chosen format. */
import { apiCommand, withApi, type ApiFlags } from '../command.ts';
import { emit, pageOutput } from '../output.ts';
import { formatsOf, pageFlagNames, pageOptions, scrapeFields, type PageFlags } from './page-options.ts';

export const scrapeCommand = () =>
  pageOptions(apiCommand('scrape', 'Scrape one page and print it as markdown, text, HTML or JSON'))
    .argument('<url>', 'the page')
    .option('-o, --out <file>', 'write to a file instead of stdout')
    .addHelpText('after', '\nExample:\n  bun run cli scrape https://example.com --format text --main')
    .action((url: string, flags: PageFlags & ApiFlags & { out?: string }) =>
      withApi(flags, async (api) => {
        const page = await api.call('POST', '/v1/scrape', { url, ...scrapeFields(flags) }, pageFlagNames());
        emit(pageOutput(page, formatsOf(flags), flags.json === true).text, flags.out);
      }),
    );
