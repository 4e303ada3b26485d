/**
 * The CLI's command tree: a subcommand for each job, each with its own --help. Commands that do
 * work speak the /v1 API (cli/client.ts) in process or to a server given by --api.
 */
import { Command } from 'commander';
import { serveCommand } from '../server/serve.ts';
import { adminCommand } from './commands/admin.ts';
import { leadCommand } from './commands/lead.ts';
import { extractCommand, searchCommand, summarizeCommand } from './commands/llm.ts';
import { mcpCommand } from './commands/mcp.ts';
import { newPluginCommand } from './commands/new-plugin.ts';
import { batchCommand, crawlCommand } from './commands/runs.ts';
import { scrapeCommand } from './commands/scrape.ts';
import { brandCommand, endpointsCommand, mapCommand } from './commands/site.ts';
import { watchCommand } from './commands/watch.ts';

export const VERSION: string = (await Bun.file(new URL('../package.json', import.meta.url)).json()).version;

export function cliProgram(): Command {
  return new Command('bun run cli')
    .description('Trawl from the command line: every job of the API, in this process or against a server (--api URL / TRAWL_API_URL)')
    .version(VERSION, '-V, --version', 'print the version')
    .addHelpText(
      'after',
      "\nRun `bun run cli <command> --help` for a command's options and an example. Configuration comes from the same\nplaces as the server's (config/default.toml, TRAWL_CONFIG, TRAWL_* variables); docs/cli.md has more.",
    )
    .addCommand(scrapeCommand())
    .addCommand(crawlCommand())
    .addCommand(batchCommand())
    .addCommand(mapCommand())
    .addCommand(searchCommand())
    .addCommand(extractCommand())
    .addCommand(summarizeCommand())
    .addCommand(watchCommand())
    .addCommand(leadCommand())
    .addCommand(brandCommand())
    .addCommand(endpointsCommand())
    .addCommand(serveCommand('serve'))
    .addCommand(adminCommand())
    .addCommand(mcpCommand())
    .addCommand(newPluginCommand());
}
