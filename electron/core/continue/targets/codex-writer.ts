/**
 * Codex CLI target: the rollout file (codex-rollout.ts), the `threads` row in the newest
 * `state_<N>.sqlite` (Codex lists threads from it and some versions answer "No saved session found"
 * without it; columns introspected, the user's sandbox/approval settings copied from their newest
 * thread) and a `session_index.jsonl` line naming it. Resumed with `codex resume <id>`.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { parse as parseToml } from 'smol-toml';
import type { NativeWriter, UndoStep, WriterEnv } from '../native-writer.js';
import { uuidFrom } from '../native-ids.js';
import { codexRollout, rolloutRelativePath } from './codex-rollout.js';
import { cliVersion, findOnPath, placeFiles, stageFile } from '../writer-support.js';
import { conversationOf } from '../plan-continuation.js';

export const CODEX_TESTED_VERSION = '0.169.0';
/** gpt-5.5's window as Codex 0.169 reports it (`model_context_window`). */
const CODEX_WINDOW = 258_400;
const BUSY_MS = 2000;

function codexHome(env: WriterEnv): string | null {
  const root = env.storeRoots[0];
  return root && fs.existsSync(root) && fs.statSync(root).isDirectory() ? root : null;
}

/** The newest `state_<N>.sqlite` in CODEX_HOME, or null. */
export function codexStateDb(home: string): string | null {
  const dbs = fs
    .readdirSync(home)
    .map((name) => ({ name, n: /^state_(\d+)\.sqlite$/.exec(name)?.[1] }))
    .filter((e): e is { name: string; n: string } => e.n !== undefined)
    .sort((a, b) => Number(b.n) - Number(a.n));
  return dbs[0] ? path.join(home, dbs[0].name) : null;
}

function codexConfig(home: string): { provider: string; model: string | null } {
  try {
    const toml = parseToml(fs.readFileSync(path.join(home, 'config.toml'), 'utf8')) as { model_provider?: unknown; model?: unknown; profile?: unknown; profiles?: Record<string, { model_provider?: unknown; model?: unknown }> };
    const profile = typeof toml.profile === 'string' ? toml.profiles?.[toml.profile] : undefined;
    const provider = profile?.model_provider ?? toml.model_provider;
    const model = profile?.model ?? toml.model;
    return { provider: typeof provider === 'string' && provider ? provider : 'openai', model: typeof model === 'string' ? model : null };
  } catch {
    return { provider: 'openai', model: null };
  }
}

/** Is Codex holding the state db's write lock (a running Codex mid-write)? */
function stateDbLocked(db: string): boolean {
  const conn = new Database(db, { timeout: BUSY_MS, fileMustExist: true });
  try {
    conn.exec('BEGIN IMMEDIATE');
    conn.exec('ROLLBACK');
    return false;
  } catch (err) {
    if ((err as { code?: string }).code?.startsWith('SQLITE_BUSY') || (err as { code?: string }).code?.startsWith('SQLITE_LOCKED')) return true;
    throw err;
  } finally {
    conn.close();
  }
}

function insertThreadRow(db: string, row: Record<string, string | number | null>): void {
  const conn = new Database(db, { timeout: BUSY_MS, fileMustExist: true });
  try {
    const columns = new Set((conn.prepare('PRAGMA table_info(threads)').all() as { name: string }[]).map((c) => c.name));
    if (columns.size === 0) throw new Error(`${db} has no threads table`);
    // The user's own defaults, as their newest thread has them.
    const newest = (columns.has('updated_at') ? conn.prepare('SELECT * FROM threads ORDER BY updated_at DESC LIMIT 1').get() : undefined) as Record<string, unknown> | undefined;
    for (const copied of ['sandbox_policy', 'approval_mode']) {
      const v = newest?.[copied];
      if (typeof v === 'string') row[copied] = v;
    }
    const names = Object.keys(row).filter((k) => columns.has(k));
    conn.prepare(`INSERT INTO threads (${names.join(', ')}) VALUES (${names.map((n) => `@${n}`).join(', ')})`).run(Object.fromEntries(names.map((n) => [n, row[n] ?? null])));
  } finally {
    conn.close();
  }
}

export const codexWriter: NativeWriter = {
  agent: 'codex',
  testedVersion: CODEX_TESTED_VERSION,
  contextWindow: () => CODEX_WINDOW,
  async check(env) {
    const bin = findOnPath('codex', env.environment);
    if (!bin) return { ok: false, reason: 'not_installed', message: 'Codex CLI is not installed here (no `codex` on PATH).' };
    const home = codexHome(env);
    if (!home) return { ok: false, reason: 'store_missing', message: `Codex's store is missing (${env.storeRoots[0] ?? 'CODEX_HOME'}); run \`codex\` once first.` };
    const db = codexStateDb(home);
    if (db && stateDbLocked(db)) return { ok: false, reason: 'locked', message: `Codex's ${path.basename(db)} is locked by a running Codex; try again when it is idle.` };
    return { ok: true, version: cliVersion(bin, env.environment) };
  },
  async stage(plan, env, stagingRoot) {
    const home = codexHome(env);
    if (!home) throw new Error("Codex's store is missing.");
    const threadId = uuidFrom(plan.key, 'codex-thread');
    const { provider, model } = codexConfig(home);
    const relative = rolloutRelativePath(plan.createdAt, threadId);
    const rollout = codexRollout(plan, { threadId, modelProvider: provider, cliVersion: CODEX_TESTED_VERSION, contextWindow: CODEX_WINDOW });
    const file = stageFile(path.join(stagingRoot, 'codex'), relative, path.join(home, relative), rollout);
    return { nativeId: threadId, files: [file], readBackRoots: [path.join(stagingRoot, 'codex')], extra: { provider, model } };
  },
  async commit(staged, plan, env) {
    const home = codexHome(env);
    if (!home) throw new Error("Codex's store is missing.");
    const warnings: string[] = [];
    const undo: UndoStep[] = placeFiles(staged.files);
    try {
      const db = codexStateDb(home);
      const ms = Date.parse(plan.createdAt);
      const firstUser = conversationOf(plan)[0]!.text;
      if (db) {
        insertThreadRow(db, {
          id: staged.nativeId,
          rollout_path: staged.files[0]!.finalPath,
          created_at: Math.floor(ms / 1000),
          updated_at: Math.floor(ms / 1000),
          created_at_ms: ms,
          updated_at_ms: ms,
          recency_at: Math.floor(ms / 1000),
          recency_at_ms: ms,
          source: 'cli',
          thread_source: 'user',
          model_provider: String(staged.extra?.provider ?? 'openai'),
          model: typeof staged.extra?.model === 'string' ? staged.extra.model : null,
          cwd: plan.cwd,
          title: plan.title,
          preview: plan.title,
          first_user_message: firstUser.slice(0, 2000),
          sandbox_policy: '{"type":"read-only"}',
          approval_mode: 'on-request',
          tokens_used: 0,
          has_user_event: 1,
          archived: 0,
          cli_version: CODEX_TESTED_VERSION,
          memory_mode: 'enabled',
          originator: 'baton',
          is_pinned: 0,
        });
        undo.push({ kind: 'sqlite-row', db, table: 'threads', keyColumn: 'id', key: staged.nativeId });
      } else {
        warnings.push(`Codex has no state_*.sqlite in ${home} yet: it lists the session from the rollout file once it builds one.`);
      }
      const indexFile = path.join(home, 'session_index.jsonl');
      const line = JSON.stringify({ id: staged.nativeId, thread_name: plan.title, updated_at: plan.createdAt });
      const before = fs.existsSync(indexFile) ? fs.readFileSync(indexFile, 'utf8') : '';
      fs.appendFileSync(indexFile, `${before && !before.endsWith('\n') ? '\n' : ''}${line}\n`, { mode: 0o600 });
      undo.push({ kind: 'jsonl-line', path: indexFile, line });
    } catch (err) {
      const { runUndo } = await import('../undo-steps.js');
      runUndo(undo);
      throw err;
    }
    return { nativeId: staged.nativeId, resume: ['codex', 'resume', staged.nativeId], undo, warnings };
  },
};
