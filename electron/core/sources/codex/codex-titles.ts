/**
 * Thread names Codex keeps outside the rollouts: `session_index.jsonl` (append-only, newest entry
 * wins; tailed incrementally) and the `threads` table of `state_<N>.sqlite` (opened read-only via
 * sqlite-readonly.ts, columns probed, re-read only when the db or its -wal changed).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { openTail, type TailCursor } from '../jsonl/jsonl-tail.js';
import { quoteIdent, tableColumns, tableNames, withReadonlyDb } from '../sqlite/sqlite-readonly.js';

export interface ThreadNames {
  /** Name from session_index.jsonl (user rename). */
  indexName?: string;
  /** threads.name (user rename, newer schema). */
  dbName?: string;
  /** threads.title (Codex's own title: the first user message in current builds). */
  dbTitle?: string;
}

type Report = (file: string, message: string, line?: number) => void;

interface RootState {
  indexCursor: TailCursor | null;
  index: Map<string, string>;
  dbFile: string | null;
  dbStamp: string;
  db: Map<string, { name?: string; title?: string }>;
}

// refresh() runs before every rollout read: its directory listing and stats are synchronous (a
// few microseconds each, against a thread-pool round trip each for the promise API).

/** Highest-numbered `state_<N>.sqlite` in `dir`, or null. */
function findStateDb(dir: string): string | null {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return null;
  }
  let best: { n: number; name: string } | null = null;
  for (const name of names) {
    const m = /^state_(\d+)\.sqlite$/.exec(name);
    if (m && (!best || Number(m[1]) > best.n)) best = { n: Number(m[1]), name };
  }
  return best ? path.join(dir, best.name) : null;
}

function stamp(file: string): string {
  const parts: string[] = [];
  for (const f of [file, `${file}-wal`]) {
    try {
      const st = fs.statSync(f);
      parts.push(`${st.size}:${st.mtimeMs}`);
    } catch {
      parts.push('-');
    }
  }
  return parts.join('|');
}

export class CodexTitles {
  private readonly roots = new Map<string, RootState>();

  constructor(
    rootDirs: string[],
    private readonly report: Report,
  ) {
    for (const r of rootDirs) this.roots.set(r, { indexCursor: null, index: new Map(), dbFile: null, dbStamp: '', db: new Map() });
  }

  /** Brings both side files up to date; cheap when nothing changed (a few stats). */
  async refresh(): Promise<void> {
    for (const [root, st] of this.roots) {
      await this.refreshIndex(root, st);
      await this.refreshDb(root, st);
    }
  }

  lookup(id: string): ThreadNames {
    const out: ThreadNames = {};
    for (const st of this.roots.values()) {
      const name = st.index.get(id);
      if (name) out.indexName = name;
      const row = st.db.get(id);
      if (row?.name) out.dbName = row.name;
      if (row?.title) out.dbTitle = row.title;
    }
    return out;
  }

  /**
   * A short digest of the names kept for `id`, or undefined when there are none: the rollout unit's
   * stamp, so a rename (which leaves the rollout untouched) makes its unit changed.
   */
  stamp(id: string): string | undefined {
    const n = this.lookup(id);
    if (!n.indexName && !n.dbName && !n.dbTitle) return undefined;
    return createHash('sha1').update(JSON.stringify([n.indexName ?? null, n.dbName ?? null, n.dbTitle ?? null])).digest('base64').slice(0, 12);
  }

  private async refreshIndex(root: string, st: RootState): Promise<void> {
    const file = path.join(root, 'session_index.jsonl');
    try {
      const handle = await openTail(file, st.indexCursor, { diagnostic: (line, message) => this.report(file, message, line) });
      if (handle.unchanged) return;
      if (handle.reset) st.index.clear();
      for await (const chunk of handle.chunks()) {
        for (const { value } of chunk.records) {
          const id = value.id;
          const name = value.thread_name;
          if (typeof id === 'string' && typeof name === 'string') st.index.set(id, name); // newest wins
        }
        st.indexCursor = chunk.cursor;
      }
    } catch (err) {
      if ((err as { code?: string }).code !== 'ENOENT') this.report(file, `cannot read: ${(err as Error).message}`);
      st.index.clear();
      st.indexCursor = null;
    }
  }

  private async refreshDb(root: string, st: RootState): Promise<void> {
    const file = findStateDb(root);
    if (!file) {
      st.db.clear();
      st.dbFile = null;
      return;
    }
    const s = stamp(file);
    if (file === st.dbFile && s === st.dbStamp) return;
    try {
      const rows = await withReadonlyDb(file, (db) => {
        if (!tableNames(db).has('threads')) return [];
        const cols = tableColumns(db, 'threads');
        if (!cols.has('id')) return [];
        const pick = ['id', ...['name', 'title'].filter((c) => cols.has(c))].map(quoteIdent).join(', ');
        return db.prepare(`SELECT ${pick} FROM threads`).all() as { id: unknown; name?: unknown; title?: unknown }[];
      });
      st.db.clear();
      for (const r of rows) {
        if (typeof r.id !== 'string') continue;
        const entry: { name?: string; title?: string } = {};
        if (typeof r.name === 'string' && r.name.length > 0) entry.name = r.name;
        if (typeof r.title === 'string' && r.title.length > 0) entry.title = r.title;
        st.db.set(r.id, entry);
      }
    } catch (err) {
      // Locked/corrupt metadata db: titles degrade, transcripts are still read. Reported once per
      // change of the db, not on every read.
      this.report(file, `cannot read thread names: ${(err as Error).message}`);
    }
    st.dbFile = file;
    st.dbStamp = s;
  }
}
