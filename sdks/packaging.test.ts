/**
 * Each SDK installed the way its ecosystem expects, into a fresh project outside this repository,
 * running its quickstart against a real Trawl server (sdks/harness.ts), offline: the TypeScript
 * package from `npm pack` (whose prepack builds dist/) installed into a Node project, type-checked
 * there against the shipped declarations and run with `node` and `bun`; the Python package with
 * pip into a fresh venv using the machine's setuptools; the Go module required by its path (a
 * replace to this checkout, no proxy) and run with `go run`. Each step's time is printed.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exec, need, startSdkHarness, type SdkHarness } from './harness.ts';

const SDKS = import.meta.dir;
const ROOT = join(SDKS, '..');
// Debian's python3-setuptools-whl and python3-wheel-whl put the build tools here, for offline installs.
const PYTHON_WHEELS = '/usr/share/python-wheels';

let harness: SdkHarness;
const scratch: string[] = [];
const project = (name: string) => {
  const dir = mkdtempSync(join(tmpdir(), `trawl-sdk-${name}-`));
  scratch.push(dir);
  return dir;
};
const quickstartEnv = () => ({ TRAWL_API_URL: harness.env.url, TRAWL_API_KEY: harness.env.keys.main });

/** Runs the steps in order and prints how long each took. */
async function timed(label: string, steps: Array<[string, () => Promise<string>]>): Promise<string[]> {
  const outputs: string[] = [];
  const times: string[] = [];
  for (const [name, step] of steps) {
    const started = performance.now();
    outputs.push(await step());
    times.push(`${name} ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  console.log(`${label}: ${times.join(', ')}`);
  return outputs;
}

/** What every quickstart prints: the page's markdown, each crawled page as it arrives, the 404. */
function expectQuickstart(output: string) {
  expect(output).toContain('Home is a page about the sea');
  // A streamed page's line starts with its event id (the markdown's links do not).
  const site = harness.env.site.replaceAll('.', '\\.');
  for (const path of ['/', '/a', '/b', '/c']) expect(output).toMatch(new RegExp(`^\\d+ .*${site}${path}(?=[\\s"]|$)`, 'm'));
  expect(output).toMatch(/^(404 |not found: ).*not found/im);
}

/** The repository the packages name (github.com/owner/name), which the Go module path must extend. */
function repository(): string {
  const url: string = JSON.parse(readFileSync(join(SDKS, 'typescript/package.json'), 'utf8')).repository.url;
  return url.replace(/^git\+https:\/\//, '').replace(/\.git$/, '');
}

beforeAll(async () => {
  harness = await startSdkHarness();
});
afterAll(async () => {
  await harness?.stop();
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

describe('SDK packages install and run their quickstarts', () => {
  test('TypeScript: npm pack, npm install into a Node project, tsc against the declarations, node and bun', async () => {
    need('npm', 'apt-get install -y nodejs npm');
    need('node', 'apt-get install -y nodejs');
    const dir = project('ts');
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'quickstart', private: true, type: 'module' }));
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          lib: ['ES2022', 'DOM', 'DOM.AsyncIterable'],
          strict: true,
          types: ['node'],
          typeRoots: [join(ROOT, 'node_modules/@types')],
        },
        files: ['quickstart.ts'],
      }),
    );
    cpSync(join(SDKS, 'typescript/examples/quickstart.ts'), join(dir, 'quickstart.ts'));
    const npm = { npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };
    const [, packed, , , node, bun] = await timed('TypeScript package', [
      ['npm pack (build)', () => exec(['npm', 'pack', '--pack-destination', dir], join(SDKS, 'typescript'), npm)],
      ['list', () => exec(['tar', '-tzf', 'trawl-sdk-0.1.0.tgz'], dir)],
      ['npm install', () => exec(['npm', 'install', '--offline', './trawl-sdk-0.1.0.tgz'], dir, npm)],
      ['tsc', () => exec([join(ROOT, 'node_modules/.bin/tsc'), '-p', '.'], dir)],
      ['node', () => exec(['node', 'quickstart.js', `${harness.env.site}/`], dir, quickstartEnv())],
      ['bun', () => exec([process.execPath, 'quickstart.js', `${harness.env.site}/`], dir, quickstartEnv())],
    ]);
    // The tarball holds the built JavaScript and declarations only, and the package needs nothing else.
    const files = packed!
      .trim()
      .split('\n')
      .map((f) => f.replace(/^package\//, ''));
    expect(files).toEqual(
      expect.arrayContaining(['dist/index.js', 'dist/index.d.ts', 'dist/client.js', 'dist/webhooks.d.ts', 'package.json']),
    );
    expect(files.filter((f) => !f.startsWith('dist/') && !['package.json', 'README.md'].includes(f))).toEqual([]);
    expect(readdirSync(join(dir, 'node_modules')).filter((f) => !f.startsWith('.'))).toEqual(['@trawl']);
    expectQuickstart(node!);
    expectQuickstart(bun!);
  }, 180_000);

  test("Python: pip install into a fresh venv, offline with the machine's setuptools, as `trawl` with py.typed", async () => {
    need('python3', 'apt-get install -y python3 python3-venv');
    const dir = project('py');
    // Built from a copy: setuptools writes build/ and *.egg-info next to the sources.
    cpSync(join(SDKS, 'python'), join(dir, 'src'), { recursive: true, filter: (p) => !/(__pycache__|\.egg-info|\/build)$/.test(p) });
    cpSync(join(SDKS, 'python/examples/quickstart.py'), join(dir, 'quickstart.py'));
    const python = join(dir, 'venv/bin/python');
    const pip = [python, '-m', 'pip', '--disable-pip-version-check', 'install', '--no-index'];
    const [, , , shown, located, output] = await timed('Python package', [
      ['venv', () => exec(['python3', '-m', 'venv', 'venv'], dir, {}, 'without ensurepip: apt-get install -y python3-venv')],
      [
        'setuptools',
        () =>
          exec(
            [...pip, '--find-links', PYTHON_WHEELS, 'setuptools', 'wheel'],
            dir,
            {},
            `setuptools and wheel for offline builds: apt-get install -y python3-setuptools-whl python3-wheel-whl (into ${PYTHON_WHEELS})`,
          ),
      ],
      ['pip install', () => exec([...pip, '--no-build-isolation', './src'], dir)],
      ['pip show', () => exec([python, '-m', 'pip', 'show', '--files', 'trawl'], dir)],
      ['import', () => exec([python, '-c', 'import trawl; print(trawl.__file__, trawl.__version__)'], dir)],
      ['quickstart', () => exec([python, 'quickstart.py', `${harness.env.site}/`], dir, quickstartEnv())],
    ]);
    expect(shown).toMatch(/^Name: trawl$/m);
    expect(shown).toMatch(/^\s+trawl\/py\.typed$/m);
    // Imported from the venv, not from a source tree.
    expect(located!.trim()).toStartWith(join(dir, 'venv/lib/python3.'));
    expect(located!.trim()).toEndWith('/site-packages/trawl/__init__.py 0.1.0');
    expectQuickstart(output!);
  }, 180_000);

  test('Go: a module requiring the SDK by its path runs the quickstart with go run, no proxy', async () => {
    need('go', 'apt-get install -y golang-go');
    const module = readFileSync(join(SDKS, 'go/go.mod'), 'utf8').match(/^module (\S+)$/m)![1]!;
    // The path `go get` resolves: the module sits in sdks/go of the repository the packages name.
    expect(module).toBe(`${repository()}/sdks/go`);
    const dir = project('go');
    const main = readFileSync(join(SDKS, 'go/examples/quickstart/main.go'), 'utf8');
    expect(main).toContain(`"${module}"`);
    writeFileSync(join(dir, 'main.go'), main);
    writeFileSync(
      join(dir, 'go.mod'),
      `module example.com/quickstart\n\ngo 1.19\n\nrequire ${module} v0.1.0\n\nreplace ${module} => ${join(SDKS, 'go')}\n`,
    );
    const go = { GOFLAGS: '-mod=mod', GOPROXY: 'off', GOWORK: 'off', GOTOOLCHAIN: 'local' };
    const [output] = await timed('Go module', [
      ['go run', () => exec(['go', 'run', '.', `${harness.env.site}/`], dir, { ...go, ...quickstartEnv() })],
    ]);
    expectQuickstart(output!);
  }, 180_000);
});
