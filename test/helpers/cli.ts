/**
 * Runs `bun cli/main.ts scrape …` as a child process for end-to-end CLI tests. The spawn is async
 * because the fixture site usually runs in the test's own process and must keep answering.
 */
export async function runCli(...args: string[]): Promise<{ stdout: string; stderr: string; exitCode: number }> {
  const child = Bun.spawn(['bun', 'cli/main.ts', 'scrape', ...args], {
    cwd: new URL('../..', import.meta.url).pathname,
    env: { ...process.env, TRAWL_FETCH_ALLOW_PRIVATE_NETWORK: 'true', TRAWL_DATA_DIR: ':memory:', TRAWL_LOG_LEVEL: 'silent' },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const [stdout, stderr, exitCode] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  return { stdout, stderr, exitCode };
}
