#!/usr/bin/env node
// The `baton` command. From a source checkout it runs the TypeScript sources through tsx; from a
// build (dist/ present, no sources) it runs the compiled JavaScript.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';

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
let entry;
if (existsSync(source)) {
  const { register } = await import('tsx/esm/api');
  register();
  entry = source;
} else {
  entry = path.join(root, 'dist', 'electron', 'cli', 'main.js');
}
const { runCli } = await import(pathToFileURL(entry).href);
const code = await runCli(process.argv.slice(2));
process.exitCode = code;
