// Whether dist/ holds a build of the sources as they are now. `npm run build:main` writes the stamp
// after tsc succeeds; any source (.ts outside tests) newer than the stamp makes the build stale.
// Walking ~400 files' metadata costs a few milliseconds, far less than loading tsx.
import { readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const SOURCE_DIRS = ['electron', 'shared'];
const STAMP = path.join('dist', '.build-stamp');

function newestSourceMtime(dir) {
  let newest = 0;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const e of entries) {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) newest = Math.max(newest, newestSourceMtime(full));
    else if (e.name.endsWith('.ts') && !e.name.endsWith('.test.ts')) newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

export function compiledIsCurrent(root) {
  const stamp = statSync(path.join(root, STAMP), { throwIfNoEntry: false });
  if (!stamp) return false;
  const newest = Math.max(...SOURCE_DIRS.map((d) => newestSourceMtime(path.join(root, d))));
  return newest <= stamp.mtimeMs;
}

/** Run as a script (`node bin/build-stamp.mjs`) after a successful compile: marks dist/ current. */
export function writeStamp(root) {
  const file = path.join(root, STAMP);
  writeFileSync(file, `${new Date().toISOString()}\n`);
  const now = new Date();
  utimesSync(file, now, now);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  writeStamp(path.resolve(path.dirname(new URL(import.meta.url).pathname), '..'));
}
