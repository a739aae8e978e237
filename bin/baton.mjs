#!/usr/bin/env node
// The `baton` command. It runs the compiled JavaScript in dist/ whenever that build is current
// (built by `npm install`/`npm run build`); only a checkout whose sources changed since the last
// build falls back to transpiling them through tsx, which costs most of a second per run.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';
import { compiledIsCurrent } from './build-stamp.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
  process.stderr.write(
    `baton: Node ${process.versions.node} is too old; Baton needs Node >= 22.12. ` +
      'Run it through npm (`npx baton …`, `npm start`), which uses the project\'s Node 22.\n',
  );
  process.exit(1);
}

const source = path.join(root, 'electron', 'cli', 'main.ts');
const compiled = path.join(root, 'dist', 'electron', 'cli', 'main.js');
let entry = compiled;
if (existsSync(source) && !compiledIsCurrent(root)) {
  const { register } = await import('tsx/esm/api');
  register();
  entry = source;
}
const { runCli } = await import(pathToFileURL(entry).href);
const code = await runCli(process.argv.slice(2));
process.exitCode = code;
