/**
 * The environment an agent that leaves temp files (sockets, caches) behind runs with: the throw-away
 * HOME, the test's PATH, a UTF-8 terminal, and a TMPDIR inside HOME (created here), so nothing it
 * writes outlives the test's temp folder.
 */
import fs from 'node:fs';
import path from 'node:path';

export function privateTmpEnv(home: string): NodeJS.ProcessEnv {
  const tmp = path.join(home, '.tmp');
  fs.mkdirSync(tmp, { recursive: true });
  return { HOME: home, PATH: process.env.PATH, TMPDIR: tmp, TERM: 'xterm-256color', LANG: 'C.UTF-8' };
}
