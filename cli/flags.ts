/** Flag parsing shared by the CLI's commands: positionals allowed, a parse error printed with the command's usage. */
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';

export function parseFlags<O extends ParseArgsOptionsConfig>(argv: string[], options: O, usage: string) {
  try {
    return parseArgs({ args: argv, allowPositionals: true, options });
  } catch (err) {
    console.error(`${(err as Error).message}\n${usage}`);
    return null;
  }
}

/**
 * A command of one argument (a URL, a query): `--help`, a flag error or a wrong number of
 * arguments prints the usage, and the exit code comes back instead of the flags (0 for help, 2 else).
 */
export function parseOneArgCommand<O extends ParseArgsOptionsConfig>(argv: string[], options: O, usage: string) {
  const parsed = parseFlags(argv, options, usage);
  if (!parsed) return 2;
  const { values, positionals } = parsed;
  const help = (values as { help?: boolean }).help === true;
  if (help || positionals.length !== 1) {
    console.error(usage);
    return help ? 0 : 2;
  }
  return { values, arg: positionals[0]! };
}
