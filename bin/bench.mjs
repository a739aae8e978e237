#!/usr/bin/env node
// `npm run bench`: runs bench/run.ts through tsx on the project's Node 22. BENCH_SCALE=0.01 for a smoke run.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const [major] = process.versions.node.split('.').map(Number);
if (major < 22) {
  process.stderr.write(`bench: Node ${process.versions.node} is too old; run it as \`npm run bench\` (uses the project's Node 22).\n`);
  process.exit(1);
}
const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const r = spawnSync(process.execPath, ['--import', tsx, path.join(root, 'bench', 'run.ts'), ...process.argv.slice(2)], { stdio: 'inherit', cwd: root });
process.exit(r.status ?? 1);
