/**
 * The dashboard's script, served as ES modules at /dashboard/assets/<name>.js: each file of
 * client/ is TypeScript (type-checked with the rest of the project), turned into JavaScript once
 * by Bun's transpiler and kept in memory. Only names of files in client/ are served.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const CLIENT_DIR = fileURLToPath(new URL('./client/', import.meta.url));
const transpiler = new Bun.Transpiler({ loader: 'ts', target: 'browser' });
let modules: Map<string, string> | null = null;

function load(): Map<string, string> {
  const out = new Map<string, string>();
  for (const file of readdirSync(CLIENT_DIR).filter((name) => name.endsWith('.ts'))) {
    const js = transpiler
      .transformSync(readFileSync(CLIENT_DIR + file, 'utf8'))
      // The sources import each other as ./x.ts (for the type checker); the browser asks for ./x.js.
      .replace(/(from\s*["']\.\/[a-z-]+)\.ts(["'])/g, '$1.js$2');
    out.set(file.replace(/\.ts$/, '.js'), js);
  }
  return out;
}

export function dashboardAsset(name: string): Response | null {
  modules ??= load();
  const js = modules.get(name);
  if (js === undefined) return null;
  return new Response(js, {
    headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff' },
  });
}
