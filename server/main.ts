/**
 * `bun start [--port N] [--host H] [--api-key K] [--role api|worker|all]`: the Trawl server
 * (server/serve.ts) until SIGINT/SIGTERM. `--help` lists the options; a bad option or bad
 * configuration is one line on stderr and exit code 2.
 */
import 'reflect-metadata';
import { runProgram } from '../cli/run.ts';
import { serveCommand } from './serve.ts';

process.exit(await runProgram(serveCommand('bun start'), Bun.argv.slice(2)));
