// The `baton` command as a few plain JavaScript files (dist/cli/), bundled from electron/cli/main.ts
// with esbuild, code split at every dynamic import: a command loads one entry file plus the chunks
// it uses instead of resolving and linking hundreds of compiled modules one by one (about half of
// a `baton list` was spent there). Packages stay external (Node loads them from node_modules),
// except commander: every command parses with it, and bundled it is one more part of a file the
// compile cache holds instead of a CommonJS package Node resolves, reads and scans per run; and
// secretlint (every redacted answer: a brief, a list), whose ~25 files with debug and
// structured-source took ~35 ms to load from node_modules and ~12 ms as one chunk. Only redact.ts
// uses them, so no other package shares their instances.
// The build records what it read (bin/cli-bundle-inputs.mjs): bin/baton.mjs runs the bundle only
// while those files are as they were.
// The ingest workers and the adapter registry are entries of their own in the same folder, since
// worker-launch.ts starts them from the folder its own code sits in.
// `npm run build:cli` / `build:main` run this after tsc and before the build stamp, so a current
// stamp means a current bundle too (bin/baton.mjs checks both).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { INPUTS_FILE, inputsManifest, realRelative, statTree } from './cli-bundle-inputs.mjs';
import { TOKEN_TABLE_FILE, buildTokenTable } from './token-table.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const CLI_BUNDLE_DIR = path.join(root, 'dist', 'cli');
export const CLI_BUNDLE = path.join(CLI_BUNDLE_DIR, 'main.js');

const ENTRIES = {
  main: 'electron/cli/main.ts',
  'ingest-worker': 'electron/core/ingest/ingest-worker.ts',
  'read-ahead-worker': 'electron/core/ingest/read-ahead-worker.ts',
  registry: 'electron/core/ingest/registry.ts',
};

/** Packages bundled in rather than loaded from node_modules at run time. */
const BUNDLED_PACKAGES = new Set(['commander', '@secretlint/core', '@secretlint/secretlint-rule-preset-recommend']);
/** What the bundled packages read, their own dependencies included (recorded as build inputs). */
const BUNDLED_TREES = ['commander', '@secretlint', 'debug', 'ms', 'supports-color', 'has-flag', 'structured-source', 'boundary'].map((p) => `node_modules/${p}`);
/** Files that steer the build without being imported by it. */
const BUILD_EXTRAS = ['package.json', 'tsconfig.json', 'bin/cli-bundle.mjs', 'bin/cli-bundle-inputs.mjs', 'bin/token-table.mjs', 'node_modules/gpt-tokenizer/package.json'];

function externalPackages() {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  const names = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies, ...pkg.optionalDependencies }).filter((n) => !BUNDLED_PACKAGES.has(n));
  return names.flatMap((n) => [n, `${n}/*`]);
}

/**
 * `import fs from 'node:fs'` as the built-in's own object. An ESM import of node:fs builds a facade
 * that reads every export, and the lazy ones load fs/promises and the streams: a few milliseconds
 * of every `baton` run. Only the default import is offered (the sources use no other form), so a
 * named import fails the build instead of changing meaning.
 */
const builtinFsPlugin = {
  name: 'builtin-fs',
  setup(b) {
    // Imports only: a bundled package's require('node:fs') (commander) stays Node's own.
    b.onResolve({ filter: /^(node:)?fs$/ }, (args) => (args.kind === 'import-statement' ? { path: 'node:fs', namespace: 'builtin-fs' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'builtin-fs' }, () => ({ contents: "export default process.getBuiltinModule('node:fs');", loader: 'js' }));
  },
};

/**
 * commander's require('node:child_process') as a stand-in that loads the built-in on first use:
 * commander needs it only for executable subcommands, which Baton has none of, and loading it
 * costs every run a few milliseconds.
 */
const lazyChildProcessPlugin = {
  name: 'lazy-child-process',
  setup(b) {
    b.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
      args.kind === 'require-call' && args.importer.includes(`${path.sep}commander${path.sep}`) ? { path: 'child_process', namespace: 'lazy-child-process' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'lazy-child-process' }, () => ({
      contents: "module.exports = new Proxy({}, { get: (_, key) => process.getBuiltinModule('node:child_process')[key] });",
      loader: 'js',
    }));
  },
};

/** esbuild's options for the bundle (also what electron/cli/help-imports.test.ts builds in memory). */
export function cliBundleOptions(outdir) {
  return {
    absWorkingDir: root,
    entryPoints: Object.fromEntries(Object.entries(ENTRIES).map(([name, file]) => [name, path.join(root, file)])),
    outdir,
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    external: externalPackages(),
    outExtension: { '.js': '.js' },
    logLevel: 'error',
    metafile: true,
    plugins: [builtinFsPlugin, lazyChildProcessPlugin],
    // The bundled CommonJS (commander) calls require() for Node built-ins.
    banner: {
      js: "// Generated by bin/cli-bundle.mjs from electron/cli; do not edit.\nconst require = process.getBuiltinModule('node:module').createRequire(import.meta.url);",
    },
  };
}

export async function buildCliBundle() {
  const { build } = await import('esbuild');
  // Built aside, then swapped in: a `baton` running meanwhile keeps a whole set of chunks.
  const temp = `${CLI_BUNDLE_DIR}.${process.pid}.tmp`;
  fs.rmSync(temp, { recursive: true, force: true });
  // Stats taken before esbuild reads anything: an input edited during the build leaves no manifest.
  const extras = BUILD_EXTRAS.map((rel) => realRelative(root, rel) ?? rel);
  const before = statTree(root, ['electron', 'shared', ...BUNDLED_TREES, ...extras]);
  const result = await build(cliBundleOptions(temp));
  fs.writeFileSync(path.join(temp, 'package.json'), '{ "type": "module" }\n');
  // What electron/core/briefs/tokens.ts counts with when it runs from here (a one-shot brief).
  fs.writeFileSync(path.join(temp, TOKEN_TABLE_FILE), buildTokenTable());
  const inputs = Object.keys(result.metafile.inputs).filter((p) => !p.includes(':'));
  const manifest = inputsManifest(root, inputs, before, extras);
  if (manifest) fs.writeFileSync(path.join(temp, INPUTS_FILE), `${JSON.stringify(manifest)}\n`);
  else process.stderr.write('cli-bundle: a source changed during the build; `baton` runs the sources until the next build\n');
  const old = `${CLI_BUNDLE_DIR}.${process.pid}.old`;
  if (fs.existsSync(CLI_BUNDLE_DIR)) fs.renameSync(CLI_BUNDLE_DIR, old);
  fs.renameSync(temp, CLI_BUNDLE_DIR);
  fs.rmSync(old, { recursive: true, force: true });
  return CLI_BUNDLE;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildCliBundle();
  process.stdout.write(`built ${path.relative(root, CLI_BUNDLE_DIR)}/\n`);
}
