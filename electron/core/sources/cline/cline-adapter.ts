/**
 * Cline source adapter. Cline rewrites one JSON document per session after every step:
 * `<data>/sessions/<id>/<id>.messages.json` (the transcript; the manifest `<id>.json` beside it has
 * cwd, branch, title) and a subagent's `agent_<agent id>.messages.json` in its parent's folder.
 * Each transcript is a unit whose stamp is its manifest's size+mtime, so the index re-reads a
 * document only when it or its manifest changed (size+mtime); an unchanged one is never opened.
 * A changed one is re-read whole and its session re-delivered (reset). Cline's SQLite indexes
 * (`db/`) lag behind the documents and are not read; its checkpoint refs in the user's repository
 * are never touched.
 */
import fs from 'node:fs';
import path from 'node:path';
import { currentEnvironment, defaultStoreRoots } from '../../paths.js';
import { BatchAccumulator } from '../session-batches.js';
import { SourceStatusTracker } from '../source-status.js';
import type { JsonValue, ReadBatch, ReadContext, SourceAdapter, SourceUnit } from '../types.js';
import { asObject, KNOWN_VERSION, normalizeCline, type ClineIds, type JsonObject } from './cline-records.js';

/** A document is held in memory whole; bigger ones are reported, not read. */
export const MAX_DOCUMENT_BYTES = 256 * 1024 * 1024;

const TRANSCRIPT = '.messages.json';

interface DocCursor {
  v: 'cline-doc';
  size: number;
  mtimeMs: number;
  stamp: string;
  sessions: string[];
}

function parseCursor(value: JsonValue | null): DocCursor | null {
  const c = asObject(value);
  return c && c.v === 'cline-doc' && Array.isArray(c.sessions) ? (c as unknown as DocCursor) : null;
}

function statOrNull(p: string): fs.Stats | null {
  try {
    return fs.statSync(p);
  } catch {
    return null;
  }
}

/** The ids a transcript path stands for: `<id>/<id>.messages.json` or `<parent>/agent_<x>.messages.json`. */
export function transcriptIds(file: string): ClineIds | null {
  const folder = path.basename(path.dirname(file));
  const name = path.basename(file);
  if (!name.endsWith(TRANSCRIPT)) return null;
  const stem = name.slice(0, -TRANSCRIPT.length);
  if (stem === folder) return { nativeId: folder, parentNativeId: null };
  if (stem.startsWith('agent_')) return { nativeId: `${folder}__${stem}`, parentNativeId: folder };
  return null;
}

/** The manifest that describes a transcript's session (a subagent's is its parent's). */
function manifestOf(file: string): string {
  const folder = path.dirname(file);
  return path.join(folder, `${path.basename(folder)}.json`);
}

const stampOf = (st: fs.Stats | null) => (st ? `${st.size}:${st.mtimeMs}` : '-');

function readObject(file: string): { value: JsonObject | null; bytes: number; error: string | null } {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    return { value: null, bytes: 0, error: err instanceof Error ? err.message : String(err) };
  }
  try {
    const value = asObject(JSON.parse(text));
    return { value, bytes: Buffer.byteLength(text), error: value ? null : 'not a JSON object' };
  } catch (err) {
    return { value: null, bytes: Buffer.byteLength(text), error: `not valid JSON (${(err instanceof Error ? err.message : String(err)).slice(0, 120)})` };
  }
}

export function createClineAdapter(roots: string[] = defaultStoreRoots('cline', currentEnvironment())): SourceAdapter {
  const rootList = [...new Set(roots.map((r) => path.resolve(r)))];
  const tracker = new SourceStatusTracker('cline', () => rootList);
  // A root is Cline's data dir (with sessions/ inside) or, under CLINE_SESSION_DATA_DIR, the
  // sessions folder itself, whatever its name: a data dir without sessions/ lists no transcripts.
  const sessionsDir = (root: string) => {
    const inner = path.join(root, 'sessions');
    return path.basename(root) === 'sessions' || !fs.existsSync(inner) ? root : inner;
  };

  async function listUnits(): Promise<SourceUnit[]> {
    const units: SourceUnit[] = [];
    let found = false;
    let unreadable: string | null = null;
    for (const root of rootList) {
      const dir = sessionsDir(root);
      let folders: string[];
      try {
        folders = fs.readdirSync(dir).sort();
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code !== 'ENOENT' && code !== 'ENOTDIR') unreadable = `${dir}: ${err instanceof Error ? err.message : String(err)}`;
        continue;
      }
      found = true;
      for (const folder of folders) {
        const full = path.join(dir, folder);
        let names: string[];
        try {
          names = fs.readdirSync(full);
        } catch {
          continue; // a file, or a folder removed meanwhile
        }
        const stamp = stampOf(statOrNull(manifestOf(path.join(full, folder + TRANSCRIPT))));
        for (const name of names.sort()) {
          const file = path.join(full, name);
          if (!transcriptIds(file)) continue;
          const st = statOrNull(file);
          if (st?.isFile()) units.push({ key: file, path: file, size: st.size, mtimeMs: st.mtimeMs, stamp });
        }
      }
    }
    tracker.listed(found, unreadable);
    return units;
  }

  async function* read(unit: SourceUnit, ctx: ReadContext): AsyncGenerator<ReadBatch> {
    const ids = transcriptIds(unit.path);
    if (!ids) return;
    const prev = parseCursor(ctx.cursor);
    const before = statOrNull(unit.path);
    const manifestFile = manifestOf(unit.path);
    const stamp = stampOf(statOrNull(manifestFile));
    if (!before) {
      tracker.error({ file: unit.path, message: 'document vanished before it could be read' }, ctx);
      if (prev && prev.sessions.length > 0) yield { sessions: [], messages: [], resetSessions: [], goneSessions: prev.sessions, cursor: ctx.cursor, bytesRead: 0 };
      return;
    }
    // Unchanged document and manifest: nothing is opened.
    if (prev && prev.size === before.size && prev.mtimeMs === before.mtimeMs && prev.stamp === stamp) return;
    if (before.size > MAX_DOCUMENT_BYTES) {
      tracker.error({ file: unit.path, message: `document is ${before.size} bytes (over ${MAX_DOCUMENT_BYTES}); not read` }, ctx);
      return;
    }
    tracker.unitOpened(unit.key);
    const doc = readObject(unit.path);
    const manifest = readObject(manifestFile);
    const after = statOrNull(unit.path);
    if (!after || after.size !== before.size || after.mtimeMs !== before.mtimeMs) {
      // Rewritten while read: what was indexed stays, and the rewrite's own change notice reads it again.
      tracker.diagnostic({ file: unit.path, message: 'document was rewritten while it was read; read again at its next change', kind: 'reread' }, ctx);
      return;
    }
    if (!doc.value) {
      tracker.skippedLine();
      tracker.diagnostic({ file: unit.path, message: `transcript ${doc.error ?? 'unreadable'}; kept what was indexed`, kind: 'malformed_lines' }, ctx);
      return;
    }
    if (doc.value.version !== KNOWN_VERSION) {
      tracker.diagnostic({ file: unit.path, message: `unknown transcript format version ${JSON.stringify(doc.value.version ?? null)} (known: ${KNOWN_VERSION}); read what is understood` }, ctx);
    }
    if (!Array.isArray(doc.value.messages)) {
      tracker.diagnostic({ file: unit.path, message: 'transcript has no messages list; read as empty' }, ctx);
    }
    if (!manifest.value && ids.parentNativeId === null && manifest.error && !manifest.error.startsWith('ENOENT')) {
      tracker.diagnostic({ file: manifestFile, message: `manifest ${manifest.error}; session read without its cwd, branch and title` }, ctx);
    }
    const normalized = normalizeCline(ids, doc.value, manifest.value, unit.path, before.size);
    const acc = new BatchAccumulator();
    acc.push({ session: normalized.session, messages: normalized.messages, usage: normalized.usage, reset: true });
    acc.addBytes(doc.bytes + manifest.bytes);
    const cursor: DocCursor = { v: 'cline-doc', size: before.size, mtimeMs: before.mtimeMs, stamp, sessions: [normalized.session.id] };
    acc.addGone((prev?.sessions ?? []).filter((id) => id !== normalized.session.id));
    tracker.unitRead(unit.key, [normalized.session.id], normalized.messages.length);
    do {
      const batch: ReadBatch = acc.drain();
      if (acc.isEmpty) batch.cursor = cursor as unknown as JsonValue;
      yield batch;
    } while (!acc.isEmpty);
  }

  return {
    agent: 'cline',
    roots: () => [...rootList],
    // Only the sessions folder: the rest of Cline's data dir holds busy SQLite files and logs.
    watchRoots: () => rootList.map((r) => (fs.existsSync(sessionsDir(r)) ? sessionsDir(r) : r)),
    listUnits,
    read,
    status: () => tracker.status(),
  };
}
