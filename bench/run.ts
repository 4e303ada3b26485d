/**
 * `bun run bench <name> [args…]` runs bench/<name>.ts. Benchmarks compare Trawl with a named
 * baseline in the same run and write their numbers to bench/results/<name>.json.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';

const [name, ...args] = Bun.argv.slice(2);
// A benchmark is a script with a shebang line; helper modules beside it have none.
const available = readdirSync(import.meta.dir)
  .filter((f) => f.endsWith('.ts') && readFileSync(`${import.meta.dir}/${f}`, 'utf8').startsWith('#!'))
  .map((f) => f.slice(0, -3));
if (!name || !available.includes(name) || !existsSync(`${import.meta.dir}/${name}.ts`)) {
  console.error(`Usage: bun run bench <name> [args…]\nAvailable: ${available.join(', ')}`);
  process.exit(name ? 1 : 0);
}
const child = Bun.spawn(['bun', `${import.meta.dir}/${name}.ts`, ...args], { stdio: ['inherit', 'inherit', 'inherit'] });
process.exit(await child.exited);
