/**
 * Trawl in processes of its own (`bun server/main.ts --role all|worker`), for tests and benchmarks
 * of several processes sharing one database: started with test settings (private network allowed,
 * short leases, fast polling) plus the caller's environment, with its log collected and, for
 * `all`, the URL it listens on.
 */
const ROOT = new URL('../..', import.meta.url).pathname;

export interface TrawlProcess {
  proc: ReturnType<typeof Bun.spawn>;
  /** Resolves with the API URL once the process listens (role all). */
  url: Promise<string>;
  output(): string;
}

export function spawnTrawl(role: 'all' | 'worker', env: Record<string, string>): TrawlProcess {
  const proc = Bun.spawn(['bun', 'server/main.ts', '--role', role, '--port', '0'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      TRAWL_LOG_LEVEL: 'info',
      TRAWL_FETCH_ALLOW_PRIVATE_NETWORK: 'true',
      TRAWL_JOBS_LEASE_SECONDS: '2',
      TRAWL_JOBS_POLL_INTERVAL_MS: '100',
      TRAWL_JOBS_SHUTDOWN_GRACE_MS: '3000',
      ...env,
    },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  let log = '';
  const { promise: url, resolve: resolveUrl } = Promise.withResolvers<string>();
  void (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of proc.stdout as ReadableStream<Uint8Array>) {
      // Only the start lines matter; a long-running worker's log is not kept whole.
      if (log.length < 200_000) log += decoder.decode(chunk);
      const match = /"url":"(http:\/\/127\.0\.0\.1:\d+)"/.exec(log);
      if (match) resolveUrl(match[1]!);
    }
  })();
  void new Response(proc.stderr as ReadableStream<Uint8Array>).text().then((text) => {
    log += text;
  });
  return { proc, url, output: () => log };
}

/** Resolves once a worker process has logged that its job workers run (or rejects when it exits first). */
export async function workerStarted(worker: TrawlProcess, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!worker.output().includes('running job workers')) {
    if (worker.proc.exitCode !== null) throw new Error(`worker exited ${worker.proc.exitCode}: ${worker.output()}`);
    if (Date.now() > deadline) throw new Error(`worker did not start: ${worker.output()}`);
    await Bun.sleep(50);
  }
}
