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
