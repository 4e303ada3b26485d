/**
 * Runs `bun cli/main.ts …` (or another entry point, e.g. `server/main.ts`) as a child process for
 * end-to-end CLI tests, with piped output or on a pseudo-terminal. The spawn is async because the
 * fixture site (or a provider test server) usually runs in the test's own process and must keep
 * answering.
 */
const ROOT = new URL('../..', import.meta.url).pathname;
const BASE_ENV = { TRAWL_FETCH_ALLOW_PRIVATE_NETWORK: 'true', TRAWL_DATA_DIR: ':memory:', TRAWL_LOG_LEVEL: 'silent' };

export interface CliRun {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** `bun <entry> …args` with stdout and stderr piped (not terminals). */
export async function runBun(entry: string, args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  const child = Bun.spawn(['bun', entry, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...BASE_ENV, ...env },
    stdout: 'pipe',
    stderr: 'pipe',
    stdin: 'ignore',
  });
  const [stdout, stderr, exitCode] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  return { stdout, stderr, exitCode };
}

export const runCliCommand = (args: string[], env: Record<string, string> = {}) => runBun('cli/main.ts', args, env);

/** `bun cli/main.ts scrape …`. */
export const runCli = (...args: string[]) => runCliCommand(['scrape', ...args]);

const quote = (arg: string) => `'${arg.replaceAll("'", "'\\''")}'`;

/**
 * `bun cli/main.ts …` on a pseudo-terminal of 120 columns (util-linux `script`), as a user at a
 * terminal runs it: stdout and stderr both arrive, interleaved and with terminal control codes, in `output`.
 */
export async function runCliInTerminal(args: string[], env: Record<string, string> = {}): Promise<{ output: string; exitCode: number }> {
  const command = `stty cols 120 rows 40; exec bun cli/main.ts ${args.map(quote).join(' ')}`;
  const child = Bun.spawn(['script', '-qec', command, '/dev/null'], {
    cwd: ROOT,
    env: { ...process.env, ...BASE_ENV, ...env },
    stdout: 'pipe',
    stderr: 'pipe',
    stdin: 'ignore',
  });
  const [output, exitCode] = await Promise.all([new Response(child.stdout).text(), child.exited]);
  return { output, exitCode };
}
