/**
 * Runs `bun cli/main.ts …` as a child process for end-to-end CLI tests. The spawn is async
 * because the fixture site (or a provider test server) usually runs in the test's own process and
 * must keep answering.
 */
export async function runCliCommand(args: string[], env: Record<string, string> = {}): Promise<{ stdout: string; stderr: string; exitCode: number }> {
  const child = Bun.spawn(['bun', 'cli/main.ts', ...args], {
    cwd: new URL('../..', import.meta.url).pathname,
    env: { ...process.env, TRAWL_FETCH_ALLOW_PRIVATE_NETWORK: 'true', TRAWL_DATA_DIR: ':memory:', TRAWL_LOG_LEVEL: 'silent', ...env },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const [stdout, stderr, exitCode] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  return { stdout, stderr, exitCode };
}

/** `bun cli/main.ts scrape …`. */
export const runCli = (...args: string[]) => runCliCommand(['scrape', ...args]);
