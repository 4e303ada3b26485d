/**
 * Runs a command-line program (the CLI, `bun start`) the way a user expects: `--help` on every
 * command, `--version`, and every failure — an unknown command or flag, a bad value, bad
 * configuration, work that failed — as ONE line on stderr (usage mistakes with a pointer to
 * --help) and an exit code: 0 done, 1 the work failed, 2 something the user must change.
 */
import type { Command, CommanderError } from 'commander';
import { failure } from './errors.ts';

/** Commander's usage errors; its other exits (help, version) are not failures. */
const USAGE_CODES = new Set([
  'commander.unknownCommand',
  'commander.unknownOption',
  'commander.missingArgument',
  'commander.optionMissingArgument',
  'commander.missingMandatoryOptionValue',
  'commander.invalidArgument',
  'commander.excessArguments',
  'commander.conflictingOption',
  'commander.error',
]);

class UsageFailure extends Error {
  constructor(
    readonly error: CommanderError,
    readonly command: Command,
  ) {
    super(error.message);
  }
}

/** The command's full name as typed (`bun run cli watch create`). */
function invocation(command: Command): string {
  const names: string[] = [];
  for (let at: Command | null = command; at; at = at.parent) names.unshift(at.name());
  return names.join(' ');
}

/** Every command of the tree reports usage errors to us instead of printing them and exiting. */
function strict(command: Command): void {
  command.exitOverride((err) => {
    throw new UsageFailure(err, command);
  });
  command.configureOutput({ outputError: () => {} });
  command.showSuggestionAfterError(true);
  for (const sub of command.commands) strict(sub);
}

export async function runProgram(program: Command, argv: string[]): Promise<number> {
  strict(program);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (err) {
    if (err instanceof UsageFailure) {
      const { error, command } = err;
      // A command of subcommands given none: its help is printed (on stderr); that is a usage mistake too.
      if (error.code === 'commander.help') return 2;
      if (!USAGE_CODES.has(error.code)) return error.exitCode;
      // "error: unknown command 'crwal' (Did you mean crawl?)" in one line, with where to look.
      const message = error.message.replace(/\s*\n\s*/g, ' ').trim();
      process.stderr.write(`${message} (see: ${invocation(command)} --help)\n`);
      return 2;
    }
    const { message, exitCode } = failure(err);
    process.stderr.write(`${message}\n`);
    return exitCode;
  }
}
