#!/usr/bin/env node
// The `baton` command. It runs the bundle in dist/cli/ (built by `npm install`/`npm run build`)
// whenever it is a build of the sources as they are now (bin/cli-bundle-inputs.mjs: a stat of each
// file the build read, exact, a few milliseconds); a checkout whose sources changed since falls back
// to transpiling them through tsx (most of a second per run), never to a stale bundle. An install
// without the sources (the packaged app) runs what it ships.
// `baton hook …` takes a lean path of its own: an agent runs it at every session start.
// A namespace import: Node 20 has no enableCompileCache, and a named import of it would fail to
// load before the version check below could say what is wrong.
import * as nodeModule from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// V8's on-disk code cache (Node ≥ 22.1): later runs skip compiling the modules they load.
nodeModule.enableCompileCache?.();

if (process.argv[2] === 'hook') await runHook();
else await runCommand();

/** One plain bundle (bin/hook-bundle.mjs): no tsx, no commander. Never fails the agent. */
async function runHook() {
  let code = 0;
  try {
    const { hookBundle } = await import('./hook-bundle.mjs');
    const { main } = await import(pathToFileURL(await hookBundle()).href);
    code = await main(process.argv.slice(3));
  } catch (err) {
    const { appendFileSync, mkdirSync } = await import('node:fs');
    const os = await import('node:os');
    const dir = process.env.BATON_HOME || path.join(process.env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config'), 'baton');
    try {
      mkdirSync(dir, { recursive: true });
      appendFileSync(path.join(dir, 'baton.log'), `${new Date().toISOString()} [hook] cannot load the hook: ${err?.message ?? err}\n`);
    } catch {
      /* nothing left to try */
    }
  }
  // Let stdout drain, but never wait on a stdin the agent left open.
  process.exitCode = code;
  setTimeout(() => process.exit(code), 200).unref();
}

async function runCommand() {
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major < 22 || (major === 22 && minor < 12)) {
    process.stderr.write(
      `baton: Node ${process.versions.node} is too old; Baton needs Node >= 22.12. ` +
        'Run it through npm (`npx baton …`, `npm start`), which uses the project\'s Node 22.\n',
    );
    process.exit(1);
  }
  // Not `import … from 'node:fs'`: its ESM facade loads fs/promises and the streams (see cli-bundle-inputs.mjs).
  const { existsSync } = process.getBuiltinModule('node:fs');
  const source = path.join(root, 'electron', 'cli', 'main.ts');
  const bundle = path.join(root, 'dist', 'cli', 'main.js');
  let entry;
  if (!existsSync(source)) entry = existsSync(bundle) ? bundle : path.join(root, 'dist', 'electron', 'cli', 'main.js');
  else if ((await import('./cli-bundle-inputs.mjs')).bundleIsCurrent(root)) entry = bundle;
  else {
    const { register } = await import('tsx/esm/api');
    register();
    entry = source;
  }
  const { runCli } = await import(pathToFileURL(entry).href);
  process.exitCode = await runCli(process.argv.slice(2));
}
