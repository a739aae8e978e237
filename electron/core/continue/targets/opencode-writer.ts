/**
 * Continue natively in OpenCode (tested 1.18.33) through its own importer (see
 * opencode-family-writer.ts): `opencode import <file>` in the project folder, undone by
 * `opencode session delete <id>`, which removes exactly the imported rows. Resumed with `opencode -s <id>`.
 */
import path from 'node:path';
import type { NativeWriter, WriterEnv } from '../native-writer.js';
import { openCodeFamilyWriter } from './opencode-family-writer.js';

/** `opencode.db` of the store: the OPENCODE_DB file when Baton's roots name one, else `<data dir>/opencode.db`. */
export function openCodeDbPath(env: WriterEnv): string {
  const file = env.storeRoots.find((r) => r.endsWith('.db'));
  if (file) return file;
  const data = env.storeRoots[0];
  if (!data) throw new Error('no OpenCode store root');
  return path.join(data, 'opencode.db');
}

export const openCodeWriter: NativeWriter = openCodeFamilyWriter({
  agent: 'opencode',
  bin: 'opencode',
  label: 'OpenCode',
  testedVersion: '1.18.33',
  dbPath: openCodeDbPath,
  storeDir: (env) => path.dirname(openCodeDbPath(env)),
  configDirName: 'opencode',
  fallbackProvider: 'opencode',
  resume: (id) => ['opencode', '-s', id],
  imported: (out, id) => out.includes(id),
});
