/**
 * The legacy OpenCode JSON tree (≤ v1.1, still on disk after the SQLite upgrade, sometimes never
 * imported): `storage/session/<projectID>/<sessionID>.json`, `storage/message/<sessionID>/<msgID>.json`,
 * `storage/part/<messageID>/<partID>.json`. Files are rewritten whole, so change detection is a
 * fingerprint of (name, size, mtime) of every file of a session; a half-written file fails to parse
 * and is reported, then picked up again once its fingerprint changes.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import {
  asObject,
  normalizeOpenCodeSession,
  parseObject,
  type NormalizedSession,
  type OpenCodeFamily,
  type OpenCodeMessageRow,
  type OpenCodePartRow,
} from './normalize.js';

export interface JsonSessionRef {
  id: string;
  sessionFile: string;
}

function listDir(dir: string): fs.Dirent[] {
  try {
    return fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

function jsonFiles(dir: string): string[] {
  return listDir(dir)
    .filter((e) => e.isFile() && e.name.endsWith('.json'))
    .map((e) => path.join(dir, e.name))
    .sort();
}

export function isJsonStore(storageDir: string): boolean {
  try {
    return fs.statSync(path.join(storageDir, 'session')).isDirectory();
  } catch {
    return false;
  }
}

export function listJsonSessions(storageDir: string): JsonSessionRef[] {
  const out: JsonSessionRef[] = [];
  for (const project of listDir(path.join(storageDir, 'session'))) {
    if (!project.isDirectory()) continue;
    for (const file of jsonFiles(path.join(storageDir, 'session', project.name))) {
      out.push({ id: path.basename(file, '.json'), sessionFile: file });
    }
  }
  return out.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

function messageFiles(storageDir: string, sessionId: string): string[] {
  return jsonFiles(path.join(storageDir, 'message', sessionId));
}

function partFiles(storageDir: string, messageId: string): string[] {
  return jsonFiles(path.join(storageDir, 'part', messageId));
}

/** Fingerprint of every file that makes up the session, and their total size. */
export function fingerprintSession(storageDir: string, ref: JsonSessionRef): { fingerprint: string; size: number } {
  const hash = crypto.createHash('sha1');
  let size = 0;
  const add = (file: string) => {
    try {
      const st = fs.statSync(file);
      size += st.size;
      hash.update(`${file}\0${st.size}\0${st.mtimeMs}\n`);
    } catch {
      hash.update(`${file}\0missing\n`);
    }
  };
  add(ref.sessionFile);
  for (const m of messageFiles(storageDir, ref.id)) {
    add(m);
    for (const p of partFiles(storageDir, path.basename(m, '.json'))) add(p);
  }
  return { fingerprint: hash.digest('hex'), size };
}

function readJson(file: string, warn: (m: string) => void): Record<string, unknown> | null {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    warn(`${file}: ${err instanceof Error ? err.message : String(err)}`);
    return null;
  }
  const obj = parseObject(text);
  if (!obj) warn(`${file}: not a JSON object (half-written?), skipped`);
  return obj;
}

export function loadJsonSession(
  storageDir: string,
  ref: JsonSessionRef,
  warn: (message: string) => void,
  agent: OpenCodeFamily = 'opencode',
): { normalized: NormalizedSession; bytes: number } | null {
  const info = readJson(ref.sessionFile, warn);
  if (!info) return null;
  let bytes = 0;
  const size = (f: string) => {
    try {
      bytes += fs.statSync(f).size;
    } catch {
      /* vanished: counted as nothing */
    }
  };
  size(ref.sessionFile);
  const messages: OpenCodeMessageRow[] = [];
  const parts: OpenCodePartRow[] = [];
  for (const file of messageFiles(storageDir, ref.id)) {
    size(file);
    const data = readJson(file, warn);
    if (!data) continue;
    const id = typeof data.id === 'string' ? data.id : path.basename(file, '.json');
    const created = asObject(data.time)?.created;
    messages.push({ id, timeCreated: typeof created === 'number' ? created : null, data });
    for (const pf of partFiles(storageDir, id)) {
      size(pf);
      const p = readJson(pf, warn);
      if (!p) continue;
      parts.push({ id: typeof p.id === 'string' ? p.id : path.basename(pf, '.json'), messageId: id, data: p });
    }
  }
  const time = asObject(info.time);
  const str = (v: unknown) => (typeof v === 'string' ? v : null);
  const num = (v: unknown) => (typeof v === 'number' ? v : null);
  const normalized = normalizeOpenCodeSession(
    {
      agent,
      id: str(info.id) ?? ref.id,
      parentId: str(info.parentID),
      directory: str(info.directory),
      title: str(info.title),
      timeCreated: num(time?.created),
      timeUpdated: num(time?.updated),
      model: null,
    },
    messages,
    parts,
    ref.sessionFile,
    bytes,
  );
  return { normalized, bytes };
}
