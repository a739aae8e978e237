/**
 * Hermes Agent target, through Hermes' own importer: Baton writes the conversation as a Claude
 * Code-format transcript (claude-lines.ts, the format `hermes sessions import --from claude` reads)
 * into `<HERMES_HOME>/baton-continued/`, then runs that importer, which creates the Hermes session in
 * its state.db and prints its id. Undo removes the transcript and the imported session's rows.
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import Database from 'better-sqlite3';
import type { NativeWriter, UndoStep, WriterEnv } from '../native-writer.js';
import { claudeProjectDir, claudeSessionId, claudeTranscript } from './claude-lines.js';
import { cliVersion, findOnPath, placeFiles, stageFile } from '../writer-support.js';
import { runUndo } from '../undo-steps.js';

/** The importer's source (hermes_cli/foreign_sessions.py) as read, not a CLI run: Hermes is not on npm. */
export const HERMES_TESTED_VERSION = '0.0.0';
const IMPORTED = /Imported .* session as (\S+)/;

function hermesHome(env: WriterEnv): string | null {
  const root = env.storeRoots[0];
  return root && fs.existsSync(path.join(root, 'state.db')) ? root : null;
}

function locked(db: string): boolean {
  const conn = new Database(db, { timeout: 2000, fileMustExist: true });
  try {
    conn.exec('BEGIN IMMEDIATE');
    conn.exec('ROLLBACK');
    return false;
  } catch (err) {
    if (/^SQLITE_(BUSY|LOCKED)/.test((err as { code?: string }).code ?? '')) return true;
    throw err;
  } finally {
    conn.close();
  }
}

export const hermesWriter: NativeWriter = {
  agent: 'hermes',
  testedVersion: HERMES_TESTED_VERSION,
  contextWindow: () => 128_000,
  async check(env) {
    const bin = findOnPath('hermes', env.environment);
    if (!bin) return { ok: false, reason: 'not_installed', message: 'Hermes Agent is not installed here (no `hermes` on PATH).' };
    const home = hermesHome(env);
    if (!home) return { ok: false, reason: 'store_missing', message: `Hermes' state.db is missing (${env.storeRoots[0] ?? 'HERMES_HOME'}); run \`hermes\` once first.` };
    if (locked(path.join(home, 'state.db'))) return { ok: false, reason: 'locked', message: "Hermes' state.db is locked by a running Hermes; try again when it is idle." };
    return { ok: true, version: cliVersion(bin, env.environment) };
  },
  async stage(plan, env, stagingRoot) {
    const home = hermesHome(env);
    if (!home) throw new Error("Hermes' state.db is missing.");
    const transcriptId = claudeSessionId(plan);
    // Staged in Claude's layout so Baton's Claude reader reads it back exactly as Hermes' importer will.
    const relative = path.join('projects', claudeProjectDir(plan.cwd), `${transcriptId}.jsonl`);
    const staged = stageFile(path.join(stagingRoot, 'claude'), relative, path.join(home, 'baton-continued', `${transcriptId}.jsonl`), claudeTranscript(plan, transcriptId, 'imported'));
    return { nativeId: transcriptId, files: [staged], readBackRoots: [path.join(stagingRoot, 'claude')] };
  },
  async commit(staged, plan, env) {
    const home = hermesHome(env);
    if (!home) throw new Error("Hermes' state.db is missing.");
    const bin = findOnPath('hermes', env.environment) ?? 'hermes';
    const undo: UndoStep[] = placeFiles(staged.files);
    const file = staged.files[0]!.finalPath;
    const r = spawnSync(bin, ['sessions', 'import', '--from', 'claude', file], { cwd: plan.cwd, env: env.environment.env, encoding: 'utf8', timeout: 120_000 });
    const id = IMPORTED.exec(r.stdout ?? '')?.[1];
    if (r.status !== 0 || !id) {
      runUndo(undo);
      throw new Error(`hermes sessions import failed: ${(r.stderr || r.stdout || String(r.error ?? '')).trim().slice(0, 400)}`);
    }
    const db = path.join(home, 'state.db');
    undo.push({ kind: 'sqlite-row', db, table: 'messages', keyColumn: 'session_id', key: id });
    undo.push({ kind: 'sqlite-row', db, table: 'sessions', keyColumn: 'id', key: id });
    return { nativeId: id, resume: ['hermes', '--resume', id], undo, warnings: [] };
  },
};
