/**
 * Continue natively in OpenCode (tested 1.18.33) through its own importer: an `opencode export`-
 * shaped document is staged (and laid out as OpenCode's JSON storage tree for Baton's reader to read
 * back), then `opencode import <file>` runs in the project folder, which binds the session to that
 * folder's project and inserts the session, message and part rows. Undo is OpenCode's own
 * `opencode session delete <id>`, which removes exactly those rows. Resumed with `opencode -s <id>`.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { CommitResult, NativeWriter, StagedSession, WriterCheck, WriterEnv } from '../native-writer.js';
import { writeFileAtomic } from '../../fs/atomic-write.js';
import { openCodeDefaultModel, openCodeDocument, writeStorageTree } from './opencode-export.js';
import { findOnPath } from '../writer-support.js';
import { installedWithStore } from './writer-checks.js';

const TESTED = '1.18.33';

/** `opencode.db` of the store: the OPENCODE_DB file when Baton's roots name one, else `<data dir>/opencode.db`. */
export function openCodeDbPath(env: WriterEnv): string {
  const file = env.storeRoots.find((r) => r.endsWith('.db'));
  if (file) return file;
  const data = env.storeRoots[0];
  if (!data) throw new Error('no OpenCode store root');
  return path.join(data, 'opencode.db');
}

function dataDir(env: WriterEnv): string {
  return path.dirname(openCodeDbPath(env));
}

function configDir(env: WriterEnv): string {
  const e = env.environment.env;
  return path.join(e.XDG_CONFIG_HOME || path.join(env.environment.home, '.config'), 'opencode');
}

/** True when another connection holds the database's write lock (a running OpenCode mid-write). */
export function openCodeDbLocked(dbPath: string): boolean {
  const db = new Database(dbPath, { fileMustExist: true, timeout: 0 });
  try {
    db.exec('BEGIN IMMEDIATE');
    db.exec('ROLLBACK');
    return false;
  } catch (err) {
    if (/SQLITE_BUSY|database is locked/i.test(String((err as Error).message) + String((err as { code?: string }).code))) return true;
    throw err;
  } finally {
    db.close();
  }
}

export function openCodeHasSession(dbPath: string, id: string): boolean {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    return db.prepare('SELECT 1 FROM session WHERE id = ?').get(id) !== undefined;
  } finally {
    db.close();
  }
}

function run(bin: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(bin, args, { cwd, env, timeout: 120_000, maxBuffer: 8 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? Number((err as { code?: unknown }).code) : 1) : 0;
      resolve({ code, out: `${stdout}\n${stderr}` });
    });
  });
}

export const openCodeWriter: NativeWriter = {
  agent: 'opencode',
  testedVersion: TESTED,

  // OpenCode resumes with the user's configured model; 128k is what the common ones offer at least.
  contextWindow: () => 128_000,

  async check(env: WriterEnv): Promise<WriterCheck> {
    const found = installedWithStore(env, 'opencode', 'OpenCode', dataDir(env));
    if (!found.ok) return found;
    const db = openCodeDbPath(env);
    if (!fs.existsSync(db)) return { ok: false, reason: 'store_missing', message: `OpenCode's database ${db} does not exist: run \`opencode\` once first` };
    if (openCodeDbLocked(db)) return { ok: false, reason: 'locked', message: `OpenCode's database ${db} is locked by a running opencode` };
    return found;
  },

  async stage(plan, env, stagingRoot): Promise<StagedSession> {
    const model = openCodeDefaultModel(configDir(env)) ?? { providerID: 'opencode', modelID: 'continued' };
    const doc = openCodeDocument(plan, model, TESTED);
    const root = path.join(stagingRoot, 'opencode');
    const documentPath = path.join(root, 'import', `${doc.info.id}.json`);
    writeFileAtomic(documentPath, JSON.stringify(doc, null, 2), 0o600);
    writeStorageTree(path.join(root, 'data'), doc);
    return { nativeId: doc.info.id, files: [], readBackRoots: [path.join(root, 'data')], extra: { documentPath } };
  },

  async commit(staged, plan, env): Promise<CommitResult> {
    const id = staged.nativeId;
    const undo = [{ kind: 'command' as const, argv: ['opencode', 'session', 'delete', id], cwd: plan.cwd }];
    const db = openCodeDbPath(env);
    // Already imported (the same source state continued before): importing again would upsert the
    // session over whatever the user did in it since.
    if (fs.existsSync(db) && openCodeHasSession(db, id)) return { nativeId: id, resume: ['opencode', '-s', id], undo, warnings: [] };
    const bin = findOnPath('opencode', env.environment);
    if (!bin) throw new Error('OpenCode is not installed: no `opencode` on PATH');
    const { code, out } = await run(bin, ['import', String(staged.extra?.documentPath)], plan.cwd, env.environment.env);
    if (code !== 0 || !out.includes(id)) throw new Error(`opencode import failed (exit ${code}): ${out.trim().slice(0, 500)}`);
    return { nativeId: id, resume: ['opencode', '-s', id], undo, warnings: [] };
  },
};
