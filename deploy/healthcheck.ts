/**
 * The container image's HEALTHCHECK: healthy when this container's Trawl answers GET /health with
 * 200 (`ok` or `degraded`; `down` is a 503). A worker-only process serves no HTTP, so for it the
 * check only asks that the server process is running.
 */
import { readdirSync, readFileSync } from 'node:fs';

const args = (pid: string) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  } catch {
    return [];
  }
};

// The role may come from the command (`--role worker`, seen in PID 1's arguments: tini passes them
// on) or from TRAWL_ROLE, which the check inherits from the container's environment.
const command = args('1');
const flag = command.indexOf('--role');
const role = (flag >= 0 ? command[flag + 1] : command.find((a) => a.startsWith('--role='))?.slice(7)) ?? process.env.TRAWL_ROLE ?? 'all';

if (role === 'worker') {
  const running = readdirSync('/proc').some(
    (pid) => /^\d+$/.test(pid) && pid !== String(process.pid) && args(pid).some((a) => a.endsWith('server/main.ts')),
  );
  if (!running) console.error('the Trawl worker process is not running');
  process.exit(running ? 0 : 1);
}

const portFlag = command.indexOf('--port');
const port = (portFlag >= 0 ? command[portFlag + 1] : undefined) ?? process.env.TRAWL_SERVER_PORT ?? process.env.PORT ?? '3000';
try {
  const res = await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(8000) });
  const body = (await res.json().catch(() => ({}))) as { status?: string; reason?: string };
  if (res.status !== 200) console.error(`/health answered ${res.status}: ${body.status ?? ''} ${body.reason ?? ''}`);
  process.exit(res.status === 200 ? 0 : 1);
} catch (err) {
  console.error(`/health did not answer: ${(err as Error).message}`);
  process.exit(1);
}
