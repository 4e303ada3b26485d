/**
 * `bun run cli <command> …`: the command line (cli/program.ts lists the commands). Exit codes: 0
 * done, 1 the work failed, 2 a usage or configuration mistake, always told in one line.
 */
import 'reflect-metadata';
import { cliProgram } from './program.ts';
import { runProgram } from './run.ts';

if (import.meta.main) process.exit(await runProgram(cliProgram(), Bun.argv.slice(2)));
