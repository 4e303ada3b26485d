/**
 * Which installed packages only the development tools need, for the container image:
 * `bun deploy/dev-deps.ts prune <app dir>` deletes them after `bun install --production`, and
 * `bun deploy/dev-deps.ts check <app dir>` fails when one is there (deploy/test-image.sh runs it
 * inside the built image).
 *
 * Why a prune at all: `bun install --production` still installs the optional peers of production
 * packages when the lockfile resolved them for a dev dependency (Elysia and node-llama-cpp name
 * `typescript` and `@types/bun` as optional peers), which put TypeScript's compiler (~30 MB) and
 * the Bun type declarations into the image.
 *
 * A package is needed when the app's `dependencies` reach it through `dependencies`,
 * `optionalDependencies` or required `peerDependencies`, resolved the way Node resolves them
 * (the nearest `node_modules` upwards). Everything else at the top of `node_modules` goes.
 */
import { existsSync, lstatSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

interface Manifest {
  name?: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

const readManifest = (dir: string): Manifest => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));

/** The directory `name` resolves to from a package at `from`, or null when it is not installed. */
function locate(name: string, from: string, root: string): string | null {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dir === root || dir === dirname(dir)) return null;
  }
}

/** Every installed package directory the production dependencies reach. */
export function neededPackages(app: string): Set<string> {
  const root = resolve(app);
  const needed = new Set<string>();
  const queue: Array<[string, string]> = Object.keys(readManifest(root).dependencies ?? {}).map((name) => [name, root]);
  while (queue.length) {
    const [name, from] = queue.pop()!;
    const dir = locate(name, from, root);
    // An optional dependency for another platform is simply not installed.
    if (!dir || needed.has(dir)) continue;
    needed.add(dir);
    const manifest = readManifest(dir);
    const optionalPeers = manifest.peerDependenciesMeta ?? {};
    const peers = Object.keys(manifest.peerDependencies ?? {}).filter((peer) => !optionalPeers[peer]?.optional);
    for (const dep of [...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.optionalDependencies ?? {}), ...peers])
      queue.push([dep, dir]);
  }
  return needed;
}

/** Top-level package directories of `node_modules` (scoped ones as `@scope/name`). */
function installedPackages(app: string): string[] {
  const modules = join(resolve(app), 'node_modules');
  const dirs: string[] = [];
  for (const entry of readdirSync(modules)) {
    if (entry.startsWith('.')) continue;
    if (entry.startsWith('@')) for (const inner of readdirSync(join(modules, entry))) dirs.push(join(modules, entry, inner));
    else dirs.push(join(modules, entry));
  }
  return dirs;
}

export function devOnlyPackages(app: string): string[] {
  const needed = neededPackages(app);
  return installedPackages(app).filter((dir) => !needed.has(dir));
}

const [mode, app = '.'] = Bun.argv.slice(2);
if (mode === 'prune') {
  const extra = devOnlyPackages(app);
  for (const dir of extra) rmSync(dir, { recursive: true, force: true });
  // Command links of the removed packages (tsc, …) would dangle.
  const bin = join(resolve(app), 'node_modules', '.bin');
  if (existsSync(bin)) {
    for (const link of readdirSync(bin)) {
      const path = join(bin, link);
      if (lstatSync(path).isSymbolicLink() && !existsSync(resolve(bin, readlinkSync(path)))) rmSync(path);
    }
  }
  console.log(
    `removed ${extra.length} packages no production dependency needs: ${extra.map((d) => d.split('node_modules/').pop()).join(', ') || 'none'}`,
  );
} else if (mode === 'check') {
  const devDependencies = Object.keys(readManifest(resolve(app)).devDependencies ?? {});
  // A dev dependency that a production package also depends on (@types/node, which @fast-csv's
  // packages list as a dependency) is needed at run time like any other: only the rest count.
  const needed = neededPackages(app);
  const present = devDependencies.filter((name) => {
    const dir = join(resolve(app), 'node_modules', name);
    return existsSync(dir) && !needed.has(dir);
  });
  const extra = devOnlyPackages(app).map((d) => d.split('node_modules/').pop()!);
  const count = installedPackages(app).length;
  if (present.length || extra.length) {
    console.error(`development packages in the image: ${[...new Set([...present, ...extra])].join(', ')}`);
    process.exit(1);
  }
  console.log(`${count} packages installed, none of the ${devDependencies.length} dev dependencies and nothing only they need`);
} else {
  console.error('usage: bun deploy/dev-deps.ts prune|check <app dir>');
  process.exit(2);
}
