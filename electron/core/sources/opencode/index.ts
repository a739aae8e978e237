/**
 * OpenCode source adapter, and Kilo Code's (an OpenCode fork: the same tables in `kilo.db`, plus an
 * `event` log this reader does not need). Units: every `opencode*.db` in the data dir (or the explicit OPENCODE_DB
 * file given as the first root) and the legacy `storage/` JSON tree when present. Legacy sessions
 * that also exist in a database of the same data dir are left to the database (it is the newer copy).
 *
 * A changed session is always re-delivered whole: `resetSessions` + all its messages with seq from 0
 * (seq is a pure function of the stored rows, so unchanged rows keep their seq).
 */
import fs from 'node:fs';
import path from 'node:path';
import { BatchAccumulator, SnapshotBatches } from '../session-batches.js';
import { createSqliteAdapter, databaseUnit, statOrNull, type SqliteAdapterOptions, type SqliteAgent, type SqliteStore } from '../sqlite/sqlite-adapter.js';
import type { ReadBatch, ReadContext, SourceAdapter, SourceUnit } from '../types.js';
import { dbCursorJson, jsonCursorJson, parseDbCursor, parseJsonCursor } from './cursor.js';
import { loadSessions, planChanges, sessionIds } from './db-reader.js';
import { fingerprintSession, isJsonStore, listJsonSessions, loadJsonSession } from './json-reader.js';
import type { OpenCodeFamily } from './normalize.js';

export type OpenCodeAdapterOptions = SqliteAdapterOptions;

/** The database files of a data dir, per agent of the family (Kilo Code keeps one `kilo.db`). */
const DB_NAMES: Record<OpenCodeFamily, RegExp> = { opencode: /^opencode.*\.db$/, kilo: /^kilo.*\.db$/ };

export function createOpenCodeAdapter(roots: string[], options: OpenCodeAdapterOptions = {}, agent: OpenCodeFamily = 'opencode'): SourceAdapter {
  return createSqliteAdapter(agent, roots, options, (store) => openCodeStore(store, agent));
}

function openCodeStore({ roots: rootList, tracker, limit, withDb, report }: SqliteStore, agent: OpenCodeFamily): SqliteAgent {
  const DB_NAME = DB_NAMES[agent];
  const sid = (id: string) => `${agent}:${id}`;

  async function listUnits(): Promise<SourceUnit[]> {
    const units = new Map<string, SourceUnit>();
    for (const root of rootList) {
      const st = statOrNull(root);
      if (!st) continue;
      if (st.isFile()) {
        units.set(root, databaseUnit(root));
        continue;
      }
      if (!st.isDirectory()) continue;
      let names: string[];
      try {
        names = fs.readdirSync(root);
      } catch {
        continue;
      }
      for (const name of names.sort()) {
        const file = path.join(root, name);
        // A directory by that name is a unit too: its read reports that it is no database.
        if (DB_NAME.test(name)) units.set(file, databaseUnit(file));
      }
      const storage = path.join(root, 'storage');
      if (isJsonStore(storage)) {
        const sessionDir = statOrNull(path.join(storage, 'session'));
        units.set(storage, { key: storage, path: storage, size: 0, mtimeMs: sessionDir?.mtimeMs ?? 0 });
      }
    }
    return [...units.values()];
  }

  async function* readDb(unit: SourceUnit, ctx: ReadContext): AsyncGenerator<ReadBatch> {
    const file = unit.path;
    const cursor = parseDbCursor(ctx.cursor);
    const warn = (message: string) => report(ctx, { file, message });
    const plan = await withDb(file, (db) => planChanges(db, file, cursor, warn));

    const known = { ...cursor.known };
    const titles = { ...cursor.titles };
    for (const id of plan.gone) {
      delete known[id];
      delete titles[id];
    }
    let knownCount = Object.keys(known).length;
    const delivered = new Set<string>();
    // Until every changed session is delivered, a saved cursor keeps the old high-water marks: a read
    // resumed from it finds the undelivered sessions again (the delivered ones are re-delivered whole).
    const cursorAt = (done: boolean) =>
      dbCursorJson({ v: 1, marks: done ? plan.marks : cursor.marks, known, pending: cursor.pending.filter((id) => !delivered.has(id)), titles });

    const acc = new BatchAccumulator(limit);
    acc.addGone(plan.gone.map(sid));
    acc.addBytes(plan.bytes);
    tracker.sessionsGone(plan.gone.map(sid));
    const out = new SnapshotBatches(acc, cursorAt, () => knownCount, (b) => tracker.unitRead(unit.key, b.sessions.map((s) => s.id), b.messages.length));

    const queue = plan.changed;
    let next = 0;
    while (next < queue.length) {
      if (ctx.signal?.aborted) return;
      const from = next;
      const loaded = await withDb(file, (db) => loadSessions(db, file, queue, from, limit, warn, agent));
      next += loaded.sessions.length;
      acc.addBytes(loaded.bytes);
      for (const item of loaded.sessions) {
        if (!item.normalized) {
          // Deleted between planning and loading.
          if (known[item.nativeId] !== undefined) {
            acc.addGone([sid(item.nativeId)]);
            delete known[item.nativeId];
            delete titles[item.nativeId];
            knownCount--;
          }
          delivered.add(item.nativeId);
          continue;
        }
        acc.push({
          session: item.normalized.session,
          messages: item.normalized.messages,
          usage: item.normalized.usage,
          reset: true,
          onDelivered: () => {
            if (known[item.nativeId] === undefined) knownCount++;
            known[item.nativeId] = item.messageRows;
            const digest = plan.titles[item.nativeId];
            if (digest !== undefined) titles[item.nativeId] = digest;
            delivered.add(item.nativeId);
          },
        });
        while (out.full) yield out.next(false);
      }
    }
    yield* out.rest(ctx.cursor);
  }

  /** Session ids stored in the databases of a data dir (the legacy tree defers to them). */
  async function databaseSessionIds(dataDir: string, ctx: ReadContext): Promise<Set<string>> {
    const ids = new Set<string>();
    const units = (await listUnits()).filter((u) => u.path !== path.join(dataDir, 'storage') && path.dirname(u.path) === dataDir);
    for (const u of units) {
      try {
        for (const id of await withDb(u.path, (db) => sessionIds(db))) ids.add(id);
      } catch (err) {
        report(ctx, { file: u.path, message: `cannot list sessions to dedupe the legacy JSON store: ${err instanceof Error ? err.message : String(err)}` });
      }
    }
    return ids;
  }

  async function* readJsonTree(unit: SourceUnit, ctx: ReadContext): AsyncGenerator<ReadBatch> {
    const storage = unit.path;
    const cursor = parseJsonCursor(ctx.cursor);
    const inDb = await databaseSessionIds(path.dirname(storage), ctx);
    const refs = listJsonSessions(storage).filter((r) => !inDb.has(r.id));
    const known = { ...cursor.known };
    const present = new Set(refs.map((r) => r.id));
    const gone = Object.keys(known).filter((id) => !present.has(id));
    for (const id of gone) delete known[id];

    const acc = new BatchAccumulator(limit);
    acc.addGone(gone.map(sid));
    tracker.sessionsGone(gone.map(sid));
    // Fingerprints per session: a cursor saved mid-read is exact for what it lists.
    const out = new SnapshotBatches(acc, () => jsonCursorJson({ v: 1, known }), () => refs.length, (b) => tracker.unitRead(unit.key, b.sessions.map((s) => s.id), b.messages.length));
    const warn = (message: string) => report(ctx, { file: storage, message });
    for (const ref of refs) {
      if (ctx.signal?.aborted) return;
      const { fingerprint } = fingerprintSession(storage, ref);
      if (known[ref.id] === fingerprint) continue;
      const loaded = loadJsonSession(storage, ref, warn, agent);
      if (!loaded) continue; // half-written session file: retried when its fingerprint changes
      acc.addBytes(loaded.bytes);
      acc.push({
        session: loaded.normalized.session,
        messages: loaded.normalized.messages,
        usage: loaded.normalized.usage,
        reset: true,
        onDelivered: () => {
          known[ref.id] = fingerprint;
        },
      });
      while (out.full) yield out.next(false);
    }
    yield* out.rest(ctx.cursor);
  }

  return {
    listUnits,
    readUnit: (unit, ctx) => (isJsonStore(unit.path) ? readJsonTree(unit, ctx) : readDb(unit, ctx)),
  };
}
