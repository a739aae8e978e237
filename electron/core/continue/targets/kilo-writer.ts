/**
 * Continue natively in Kilo Code (tested 7.7.7), an OpenCode fork that kept OpenCode's importer (see
 * opencode-family-writer.ts): the same `export`-shaped document, its messages naming Kilo's primary
 * agent `code`, goes through `kilo import <file>` in the project folder into kilo.db. Undo is Kilo's
 * own `kilo session delete <id>`. Resumed with `kilo --session <id>` (`kilo run --session <id> "…"`).
 * The import runs with the user's environment, so Kilo treats the session as any of its own (a Kilo
 * that is logged in with session ingest on syncs it, as it syncs every session).
 */
import path from 'node:path';
import type { NativeWriter, WriterEnv } from '../native-writer.js';
import { openCodeFamilyWriter } from './opencode-family-writer.js';

/** kilo.db of the store: `<data dir>/kilo.db` (Kilo keeps one database). */
export function kiloDbPath(env: WriterEnv): string {
  const data = env.storeRoots[0];
  if (!data) throw new Error('no Kilo Code store root');
  return path.join(data, 'kilo.db');
}

export const kiloWriter: NativeWriter = openCodeFamilyWriter({
  agent: 'kilo',
  bin: 'kilo',
  label: 'Kilo Code',
  testedVersion: '7.7.7',
  dbPath: kiloDbPath,
  storeDir: (env) => env.storeRoots[0],
  configDirName: 'kilo',
  // Kilo merges config.json, kilo.json, kilo.jsonc, opencode.json, opencode.jsonc in that order (later wins).
  configNames: ['opencode.jsonc', 'opencode.json', 'kilo.jsonc', 'kilo.json', 'config.json'],
  fallbackProvider: 'kilo',
  primaryAgent: 'code',
  resume: (id) => ['kilo', '--session', id],
  imported: (out, id) => out.includes(`Imported session: ${id}`),
});
