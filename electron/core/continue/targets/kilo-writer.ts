/**
 * Continue natively in Kilo Code (tested 7.7.7), an OpenCode fork that kept OpenCode's importer:
 * the same `export`-shaped document as the OpenCode writer (messages naming Kilo's primary agent,
 * `code`) is staged, and laid out as the JSON storage tree Baton's Kilo reader (OpenCode's) reads
 * back; then `kilo import <file>` runs in the project folder, which binds the session to that
 * folder's project and inserts the session, message and part rows into kilo.db. Undo is Kilo's own
 * `kilo session delete <id>`. Resumed with `kilo --session <id>` (`kilo run --session <id> "…"`).
 * The import runs with the user's environment, so Kilo treats the session as any of its own (a Kilo
 * that is logged in with session ingest on syncs it, as it syncs every session).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { CommitResult, NativeWriter, StagedSession, WriterCheck, WriterEnv } from '../native-writer.js';
import { writeFileAtomic } from '../../fs/atomic-write.js';
import { openCodeDefaultModel, openCodeDocument, writeStorageTree } from './opencode-export.js';
import { openCodeDbLocked, openCodeHasSession } from './opencode-writer.js';
import { findOnPath } from '../writer-support.js';
import { installedWithStore } from './writer-checks.js';

const TESTED = '7.7.7';

// Kilo merges config.json, kilo.json, kilo.jsonc, opencode.json, opencode.jsonc in that order (later wins).
const CONFIG_NAMES_LAST_WINS_FIRST = ['opencode.jsonc', 'opencode.json', 'kilo.jsonc', 'kilo.json', 'config.json'];

/** kilo.db of the store: `<data dir>/kilo.db` (Kilo keeps one database). */
export function kiloDbPath(env: WriterEnv): string {
  const data = env.storeRoots[0];
  if (!data) throw new Error('no Kilo Code store root');
  return path.join(data, 'kilo.db');
}

function configDir(env: WriterEnv): string {
  const e = env.environment.env;
  return path.join(e.XDG_CONFIG_HOME || path.join(env.environment.home, '.config'), 'kilo');
}

function run(bin: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(bin, args, { cwd, env, timeout: 120_000, maxBuffer: 8 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? Number((err as { code?: unknown }).code) : 1) : 0;
      resolve({ code, out: `${stdout}\n${stderr}` });
    });
  });
}

export const kiloWriter: NativeWriter = {
  agent: 'kilo',
  testedVersion: TESTED,

  // Kilo resumes with the user's configured model; 128k is what the common ones offer at least.
  contextWindow: () => 128_000,

  async check(env: WriterEnv): Promise<WriterCheck> {
    const found = installedWithStore(env, 'kilo', 'Kilo Code', env.storeRoots[0]);
    if (!found.ok) return found;
    const db = kiloDbPath(env);
    if (!fs.existsSync(db)) return { ok: false, reason: 'store_missing', message: `Kilo Code's database ${db} does not exist: run \`kilo\` once first` };
    if (openCodeDbLocked(db)) return { ok: false, reason: 'locked', message: `Kilo Code's database ${db} is locked by a running kilo` };
    return found;
  },

  async stage(plan, env, stagingRoot): Promise<StagedSession> {
    const model = openCodeDefaultModel(configDir(env), CONFIG_NAMES_LAST_WINS_FIRST) ?? { providerID: 'kilo', modelID: 'continued' };
    const doc = openCodeDocument(plan, model, TESTED, 'code');
    const root = path.join(stagingRoot, 'kilo');
    const documentPath = path.join(root, 'import', `${doc.info.id}.json`);
    writeFileAtomic(documentPath, JSON.stringify(doc, null, 2), 0o600);
    writeStorageTree(path.join(root, 'data'), doc);
    return { nativeId: doc.info.id, files: [], readBackRoots: [path.join(root, 'data')], extra: { documentPath } };
  },

  async commit(staged, plan, env): Promise<CommitResult> {
    const id = staged.nativeId;
    const undo = [{ kind: 'command' as const, argv: ['kilo', 'session', 'delete', id], cwd: plan.cwd }];
    const resume = ['kilo', '--session', id];
    const db = kiloDbPath(env);
    // Already imported (the same source state continued before): importing again would upsert the
    // session over whatever the user did in it since.
    if (fs.existsSync(db) && openCodeHasSession(db, id)) return { nativeId: id, resume, undo, warnings: [] };
    const bin = findOnPath('kilo', env.environment);
    if (!bin) throw new Error('Kilo Code is not installed: no `kilo` on PATH');
    const { code, out } = await run(bin, ['import', String(staged.extra?.documentPath)], plan.cwd, env.environment.env);
    if (code !== 0 || !out.includes(`Imported session: ${id}`)) throw new Error(`kilo import failed (exit ${code}): ${out.trim().slice(0, 500)}`);
    return { nativeId: id, resume, undo, warnings: [] };
  },
};
