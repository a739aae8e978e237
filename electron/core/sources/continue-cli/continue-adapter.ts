/**
 * Continue CLI (`cn`) source adapter: `<root>/sessions/<sessionId>.json`, one document per session
 * that cn rewrites whole after every turn, plus the `sessions.json` index (its `dateCreated` is the
 * only time cn records; its `messageCount` lags, so the documents are what is read). Each document
 * is a unit: an unchanged one (same size and mtime) is never read again; a changed one is parsed
 * whole, and when its earlier messages are unchanged (a new turn) only the new ones are delivered,
 * else (a `/compact`, which replaces the history) the session is delivered afresh.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Message, Session } from '../../../../shared/model.js';
import { currentEnvironment, defaultStoreRoots } from '../../paths.js';
import { missingOrUnreadable } from '../jsonl/jsonl-adapter.js';
import { errorCode, errorMessage, toSession } from '../jsonl/jsonl-session-reader.js';
import { BatchAccumulator } from '../session-batches.js';
import { SourceStatusTracker } from '../source-status.js';
import type { JsonValue, ReadBatch, ReadContext, SourceAdapter, SourceUnit } from '../types.js';
import { readContinueDocument, type DocMessage } from './continue-document.js';
import { ContinueIndex } from './continue-index.js';

/** A document is held in memory whole; bigger ones are reported, not read. */
export const MAX_DOCUMENT_BYTES = 256 * 1024 * 1024;

interface DocCursor {
  v: 'continue-json';
  size: number;
  mtimeMs: number;
  session: string;
  /** Messages delivered, and a hash of them: a rewrite that keeps them only appends. */
  count: number;
  prefix: string;
  stamp: string | null;
}

function parseCursor(value: JsonValue | null): DocCursor | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const c = value as Record<string, unknown>;
  return c.v === 'continue-json' && typeof c.count === 'number' && typeof c.prefix === 'string' ? (value as unknown as DocCursor) : null;
}

function prefixHash(messages: readonly DocMessage[], count: number): string {
  const h = createHash('sha256');
  for (let i = 0; i < count && i < messages.length; i++) {
    const m = messages[i]!;
    h.update(JSON.stringify([m.role, m.kind, m.text, m.toolName, m.toolCallId, m.isError]));
  }
  return h.digest('hex');
}

function sessionsDir(root: string): string {
  // A root is `~/.continue` or its `sessions` folder (as a user may type it in Settings).
  return path.basename(root) === 'sessions' ? root : path.join(root, 'sessions');
}

export function createContinueAdapter(roots: string[] = defaultStoreRoots('continue', currentEnvironment())): SourceAdapter {
  const storeRoots = [...new Set(roots.map((r) => path.resolve(r)))];
  const tracker = new SourceStatusTracker('continue', () => storeRoots);
  const index = new ContinueIndex();

  async function listUnits(): Promise<SourceUnit[]> {
    const units: SourceUnit[] = [];
    const seen = new Set<string>();
    let found = false;
    let unreadable: string | null = null;
    for (const root of storeRoots) {
      const dir = sessionsDir(root);
      let entries;
      try {
        const real = await fsp.realpath(dir);
        if (seen.has(real)) continue;
        seen.add(real);
        entries = await fsp.readdir(dir, { withFileTypes: true });
      } catch (err) {
        const outcome = missingOrUnreadable(err, dir);
        if (outcome !== 'absent' && outcome !== 'found') unreadable = outcome.unreadable;
        continue;
      }
      found = true;
      index.refresh(path.join(dir, 'sessions.json'), (message) => tracker.diagnostic({ file: path.join(dir, 'sessions.json'), message }));
      for (const e of entries) {
        if (!e.isFile() || !e.name.endsWith('.json') || e.name === 'sessions.json') continue;
        const file = path.join(dir, e.name);
        try {
          const st = await fsp.stat(file);
          const created = index.created(e.name.slice(0, -'.json'.length));
          units.push({ key: file, path: file, size: st.size, mtimeMs: st.mtimeMs, ...(created ? { stamp: `created:${created}` } : {}) });
        } catch {
          // Vanished between readdir and stat: the next listing will not show it either.
        }
      }
    }
    tracker.listed(found, unreadable);
    units.sort((a, b) => a.mtimeMs - b.mtimeMs || a.path.localeCompare(b.path));
    return units;
  }

  async function* read(unit: SourceUnit, ctx: ReadContext): AsyncGenerator<ReadBatch> {
    const prev = parseCursor(ctx.cursor);
    let st: fs.Stats;
    let text: string;
    try {
      st = fs.statSync(unit.path);
      // Unchanged document and index date: nothing to read (a new date alone re-delivers only the session).
      if (prev && prev.size === st.size && prev.mtimeMs === st.mtimeMs && prev.stamp === (unit.stamp ?? null)) return;
      if (st.size > MAX_DOCUMENT_BYTES) {
        tracker.error({ file: unit.path, message: `session document is ${st.size} bytes (over ${MAX_DOCUMENT_BYTES}); not read` }, ctx);
        return;
      }
      text = fs.readFileSync(unit.path, 'utf8');
    } catch (err) {
      const gone = errorCode(err) === 'ENOENT';
      tracker.error({ file: unit.path, message: gone ? 'file vanished before it could be read' : `cannot read: ${errorMessage(err)}`, ...(gone ? {} : { kind: 'unreadable' as const }) }, ctx);
      if (gone && prev) yield { sessions: [], messages: [], resetSessions: [], goneSessions: [prev.session], cursor: ctx.cursor, bytesRead: 0 };
      return;
    }
    tracker.unitOpened(unit.key);
    let doc;
    try {
      doc = readContinueDocument(JSON.parse(text));
    } catch (err) {
      // Caught mid-rewrite, most likely: what was indexed stays; the next change reads it again.
      tracker.skippedLine();
      tracker.diagnostic({ file: unit.path, message: `session document is not valid JSON (${errorMessage(err).slice(0, 120)}); kept what was indexed`, kind: 'malformed_lines' }, ctx);
      return;
    }
    if (!doc) {
      tracker.diagnostic({ file: unit.path, message: 'not a Continue session document (no sessionId or history); skipped' }, ctx);
      return;
    }
    const { agg, messages } = doc;
    agg.startedAt = index.created(agg.nativeId);
    agg.updatedAt = new Date(st.mtimeMs).toISOString();
    const id = `continue:${agg.nativeId}`;
    const appended = prev !== null && prev.session === id && messages.length >= prev.count && prefixHash(messages, prev.count) === prev.prefix;
    const from = appended ? prev.count : 0;
    agg.seq = messages.length;
    const session: Session = toSession('continue', agg, unit.path, st.size);
    const out: Message[] = messages.slice(from).map((m, i) => ({ sessionId: id, seq: from + i, ...m, timestamp: null, nativeId: null }));
    const acc = new BatchAccumulator();
    acc.push({ session, messages: out, reset: !appended });
    acc.addBytes(st.size);
    if (prev && prev.session !== id) acc.addGone([prev.session]);
    const cursor: DocCursor = { v: 'continue-json', size: st.size, mtimeMs: st.mtimeMs, session: id, count: messages.length, prefix: prefixHash(messages, messages.length), stamp: unit.stamp ?? null };
    tracker.unitRead(unit.key, [id], out.length);
    do {
      const batch: ReadBatch = acc.drain();
      if (acc.isEmpty) batch.cursor = cursor as unknown as JsonValue;
      yield batch;
    } while (!acc.isEmpty);
  }

  // ~/.continue also holds logs/cn.log, written all the time while cn runs: watch only the sessions.
  const watchRoots = () => storeRoots.map(sessionsDir);
  // Its reads take start times from the session index its listing read (ContinueIndex).
  return { agent: 'continue', roots: () => [...storeRoots], watchRoots, listUnits, read, status: () => tracker.status(), readsListingState: true };
}
