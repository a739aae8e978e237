/**
 * The environment an agent that leaves temp files (sockets, caches) behind runs with: the throw-away
 * HOME, the test's PATH, a UTF-8 terminal, and a TMPDIR inside HOME (created here), so nothing it
 * writes outlives the test's temp folder.
 */
import fs from 'node:fs';
import path from 'node:path';
import { baseAgentEnv } from './home-files.js';

export function privateTmpEnv(home: string): NodeJS.ProcessEnv {
  const tmp = path.join(home, '.tmp');
  fs.mkdirSync(tmp, { recursive: true });
  return baseAgentEnv(home, { TMPDIR: tmp });
}
