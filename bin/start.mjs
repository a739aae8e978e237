#!/usr/bin/env node
// `npm start`: the tray app when the Electron runtime and a display are there, otherwise headless
// mode (`baton serve`) with one line saying why. Electron's package downloads its runtime lazily
// and hangs offline, so `require('electron')` is never called to find out (see electron/app/start-mode.ts).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Electron exiting non-zero this soon means it could not start (missing libraries, sandbox…). */
const EARLY_FAILURE_MS = 5000;

// `npm start` has just built dist/; the sources (through tsx) only when they changed since (as bin/baton.mjs does).
const { compiledIsCurrent } = await import('./build-stamp.mjs');
const source = path.join(root, 'electron', 'app', 'start-mode.ts');
let entry = path.join(root, 'dist', 'electron', 'app', 'start-mode.js');
if (existsSync(source) && !compiledIsCurrent(root)) {
  const { register } = await import('tsx/esm/api');
  register();
  entry = source;
}
const { decideStartMode, headlessNotice } = await import(pathToFileURL(entry).href);

const probe = {
  root,
  platform: process.platform,
  env: process.env,
  exists: existsSync,
  readText: (file) => (existsSync(file) ? readFileSync(file, 'utf8') : null),
};
let decision = decideStartMode(probe);
if (decision.mode === 'download') {
  // Electron's package fetches its runtime on first use; do it here, visibly, once.
  process.stdout.write('Baton: downloading the Electron runtime (first start only)…\n');
  const result = spawnSync(process.execPath, [decision.installer], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'inherit', 'pipe'], timeout: 10 * 60_000 });
  const failure = result.error?.message ?? (result.status === 0 ? undefined : lastLine(result.stderr) ?? `exit status ${result.status}`);
  decision = decideStartMode({ ...probe, downloadFailed: failure ?? 'the installer finished but left no runtime' });
}

function lastLine(text) {
  const lines = (text ?? '').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('at '));
  return lines.at(-1);
}

function run(file, args) {
  const child = spawn(file, args, { stdio: 'inherit', cwd: root });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  return child;
}

function headless(reason) {
  process.stdout.write(`${headlessNotice(reason)}\n`);
  const child = run(process.execPath, [path.join(root, 'bin', 'baton.mjs'), 'serve']);
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

if (decision.mode === 'headless') {
  headless(decision.reason);
} else {
  const startedAt = Date.now();
  const child = run(decision.binary, [root]);
  child.on('error', (err) => headless(`Electron could not be started (${err.message}).`));
  child.on('exit', (code, signal) => {
    if (code !== 0 && Date.now() - startedAt < EARLY_FAILURE_MS) {
      headless(`Electron exited at once (${signal ?? `exit status ${code}`}).`);
      return;
    }
    process.exit(code ?? 0);
  });
}
