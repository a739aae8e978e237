/**
 * A synthetic agent home shaped like the real fixture stores, generated in code: the fixture records
 * are the templates (so every adapter parses them as the real thing), with fresh ids, timestamps,
 * projects, branches and varied text (English, code, some Japanese). Sizes scale with BENCH_SCALE;
 * the result is cached under bench/.corpus/<scale>/ and reused while its manifest matches.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { fixturesDir } from '../testing/fixture-home.js';

export interface CorpusSpec {
  scale: number;
  claudeSessions: number;
  codexSessions: number;
  /** Bytes of ordinary JSONL (Claude + Codex, besides the big session). */
  jsonlBytes: number;
  /** One very long Claude session, for memory-independence and append latency. */
  bigSessionBytes: number;
  opencodeClones: number;
  hermesClones: number;
  /**
   * Claude sessions kept with a real transcript's whole record mix (attachments, api-request
   * records: ~4/5 of the bytes, records Baton reads past), in a home of their own. The main corpus
   * keeps conversation records only, the densest and slowest case to read and index.
   */
  mixSessions: number;
  mixBytes: number;
}

export interface CorpusManifest {
  version: number;
  spec: CorpusSpec;
  home: string;
  /** Home holding only the real-record-mix Claude sessions. */
  mixHome: string;
  bigSession: { id: string; file: string; bytes: number };
  files: { claude: number; codex: number };
  bytes: { claude: number; codex: number; opencode: number; hermes: number; claudeMix: number };
  messages: { jsonl: number };
}

const VERSION = 7;
export const benchDir = path.dirname(fileURLToPath(import.meta.url));

export function corpusSpec(scale: number): CorpusSpec {
  return {
    scale,
    claudeSessions: Math.max(4, Math.round(2600 * scale)),
    codexSessions: Math.max(4, Math.round(2600 * scale)),
    jsonlBytes: Math.round(880 * 1024 * 1024 * scale),
    bigSessionBytes: Math.round(300 * 1024 * 1024 * scale),
    opencodeClones: Math.max(2, Math.round(2000 * scale)),
    hermesClones: Math.max(2, Math.round(3000 * scale)),
    mixSessions: Math.max(4, Math.round(400 * scale)),
    mixBytes: Math.round(150 * 1024 * 1024 * scale),
  };
}

/** Deterministic PRNG so a corpus is the same every time for a given scale. */
class Rng {
  constructor(private s: number) {}
  next(): number {
    this.s = (this.s + 0x6d2b79f5) | 0;
    let t = Math.imul(this.s ^ (this.s >>> 15), 1 | this.s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(a: readonly T[]): T {
    return a[this.int(a.length)]!;
  }
}

const WORDS = (
  'the a to of and in is it for on that with this function return const let value error test build index session agent ' +
  'file path import export type interface class async await promise stream buffer cursor batch query search token brief ' +
  'refactor migrate schema table column row insert update delete commit branch merge rebase review deploy release cache ' +
  'latency throughput memory worker thread watcher debounce parser tokenizer config settings login logout password user ' +
  'request response header status handler router middleware component render state store hook effect props layout'
).split(' ');
const IDENTS = ['parseConfig', 'SessionIndex', 'useStore', 'handleLogin', 'fetchUser', 'renderBrief', 'tailJsonl', 'applyBatch', 'IndexWriter', 'git_status'];
const JAPANESE = ['日本語のテキスト', 'データベースを更新する', '検索結果を表示', 'セッションの要約', 'エラーを修正しました'];
const BRANCHES = ['main', 'develop', 'feature/login', 'feature/search', 'fix/cursor-reset', 'release/1.2'];

function sentence(rng: Rng, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) {
    const r = rng.next();
    out.push(r < 0.06 ? rng.pick(IDENTS) : r < 0.07 ? rng.pick(JAPANESE) : rng.pick(WORDS));
  }
  return out.join(' ');
}

function toolOutput(rng: Rng): string {
  const lines = 1 + rng.int(rng.next() < 0.1 ? 100 : 12);
  const out: string[] = [];
  for (let i = 0; i < lines; i++) out.push(`${String(i + 1).padStart(4)}  ${sentence(rng, 4 + rng.int(8))}`);
  return out.join('\n');
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

function hex(n: number, width: number): string {
  return (n >>> 0).toString(16).padStart(width, '0').slice(-width);
}

function newUuid(rng: Rng): string {
  return `${hex(rng.int(2 ** 32), 8)}-${hex(rng.int(65536), 4)}-4${hex(rng.int(4096), 3)}-8${hex(rng.int(4096), 3)}-${hex(rng.int(2 ** 32), 8)}${hex(rng.int(65536), 4)}`;
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** Rewrites a template record: ids remapped, text replaced by fresh text of a realistic size. */
function rewrite(value: Json, rng: Rng, ids: Map<string, string>, key = ''): Json {
  if (typeof value === 'string') {
    if ((key === 'text' || key === 'content') && value.length > 0 && (!value.startsWith('<') || value.length > 2000)) {
      return sentence(rng, 4 + rng.int(value.length > 400 ? 50 : 18));
    }
    if (key === 'thinking' || key === 'last_agent_message') return sentence(rng, 4 + rng.int(20));
    if (key === 'output') return toolOutput(rng);
    return value.replace(UUID, (u) => {
      let v = ids.get(u);
      if (!v) ids.set(u, (v = newUuid(rng)));
      return v;
    });
  }
  if (Array.isArray(value)) return value.map((v) => rewrite(v, rng, ids, key));
  if (value && typeof value === 'object') {
    const out: { [k: string]: Json } = {};
    for (const [k, v] of Object.entries(value)) {
      if (k === 'type' && typeof v === 'string') out[k] = v;
      // An API response id (`msg_…`) is unique per response, like the request ids: each repetition gets its own.
      else if (k === 'id' && typeof v === 'string' && v.startsWith('msg_')) out[k] = ids.get(v) ?? (ids.set(v, `msg_${newUuid(rng).replace(/-/g, '').slice(0, v.length - 4)}`), ids.get(v)!);
      else if (k === 'tool_use_id' || k === 'call_id' || k === 'id') out[k] = typeof v === 'string' ? v.replace(UUID, (u) => ids.get(u) ?? (ids.set(u, newUuid(rng)), ids.get(u)!)) + '' : v;
      else if (k === 'timestamp' && typeof v === 'string') out[k] = v;
      else if (k === 'content' && Array.isArray(v) && v.some((x) => x && typeof x === 'object' && (x as { type?: string }).type === 'tool_result')) {
        out[k] = v.map((x) => {
          const o = x as { [k: string]: Json };
          return o.type === 'tool_result' ? { ...o, tool_use_id: o.tool_use_id ?? null, content: toolOutput(rng) } : rewrite(x, rng, ids, k);
        });
      } else out[k] = rewrite(v, rng, ids, k);
    }
    return out;
  }
  return value;
}

/** Copies a record with only its ids remapped: sizes and text stay as the real agent wrote them. */
function remapIds(value: Json, ids: Map<string, string>, rng: Rng): Json {
  if (typeof value === 'string') {
    return value.replace(UUID, (u) => {
      let v = ids.get(u);
      if (!v) ids.set(u, (v = newUuid(rng)));
      return v;
    });
  }
  if (Array.isArray(value)) return value.map((v) => remapIds(v, ids, rng));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, remapIds(v, ids, rng)]));
  return value;
}

interface Template {
  header: Json[];
  turns: Json[];
  /** Every record after the header, turns and the rest, in file order. */
  body: Json[];
}

function loadTemplates(dir: string, isTurn: (r: { [k: string]: Json }) => boolean): Template[] {
  const files: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.jsonl')) files.push(p);
    }
  };
  walk(dir);
  return files.map((f) => {
    const recs = fs.readFileSync(f, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { [k: string]: Json });
    const firstTurn = recs.findIndex(isTurn);
    const body = recs.slice(Math.max(0, firstTurn));
    return { header: recs.slice(0, Math.max(0, firstTurn)), turns: body.filter(isTurn), body };
  });
}

const claudeTurn = (r: { [k: string]: Json }) => r.type === 'user' || r.type === 'assistant';
const codexTurn = (r: { [k: string]: Json }) => r.type === 'response_item' || r.type === 'event_msg' || r.type === 'turn_context';

/**
 * Writes one JSONL session by repeating template turns until `bytes`; returns bytes and turn records.
 * `mix`: repeat the template's whole body, its other records copied with fresh ids only.
 */
function writeSession(file: string, t: Template, bytes: number, rng: Rng, fix: (r: { [k: string]: Json }, at: Date) => void, start: Date, mix = false): { bytes: number; records: number } {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const fd = fs.openSync(file, 'w');
  let written = 0;
  let records = 0;
  let chunk: string[] = [];
  let chunkBytes = 0;
  const at = new Date(start);
  const flush = () => {
    if (!chunk.length) return;
    fs.writeSync(fd, chunk.join(''));
    chunk = [];
    chunkBytes = 0;
  };
  const turns = new Set(t.turns);
  const emit = (r: Json, turn = true) => {
    const obj = r as { [k: string]: Json };
    at.setTime(at.getTime() + 1000 + rng.int(20_000));
    fix(obj, at);
    const line = `${JSON.stringify(obj)}\n`;
    chunk.push(line);
    chunkBytes += line.length;
    written += line.length;
    if (turn) records++;
    if (chunkBytes > 1 << 20) flush();
  };
  const ids = new Map<string, string>();
  for (const h of t.header) emit(rewrite(h, rng, ids));
  while (written < bytes) {
    ids.clear(); // fresh uuids for every repetition of the template turns
    if (mix) for (const r of t.body) emit(turns.has(r) ? rewrite(r, rng, ids) : remapIds(r, ids, rng), turns.has(r));
    else for (const r of t.turns) emit(rewrite(r, rng, ids));
  }
  flush();
  fs.closeSync(fd);
  // A real transcript was last written at its last record: give the file that mtime, so agents'
  // files interleave in time as they do on a real machine (not in the order this generator wrote them).
  fs.utimesSync(file, at, at);
  return { bytes: written, records };
}

/**
 * Copies a SQLite store (with its -wal/-shm) to `dest`, then appends `clones` copies of the rows of
 * each `plan` table, its `idCols` suffixed `_b<k>` so every copy is a distinct session.
 */
export function cloneSqlite(src: string, dest: string, clones: number, plan: { table: string; idCols: string[]; dropCols?: string[] }[]): void {
  fs.mkdirSync(path.dirname(dest), { recursive: true });
  for (const s of ['', '-wal', '-shm']) if (fs.existsSync(src + s)) fs.copyFileSync(src + s, dest + s);
  const db = new Database(dest);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  // Clone the original rows k times (each pass copies exactly the original row count).
  const originals = new Map(plan.map((p) => [p.table, db.prepare(`SELECT count(*) FROM "${p.table}"`).pluck().get() as number]));
  for (let k = 1; k <= clones; k++) {
    db.transaction(() => {
      for (const { table, idCols, dropCols = [] } of plan) {
        const cols = (db.prepare(`PRAGMA table_info("${table}")`).all() as { name: string }[]).map((c) => c.name).filter((c) => !dropCols.includes(c));
        const exprs = cols.map((c) => (idCols.includes(c) ? `CASE WHEN "${c}" IS NULL THEN NULL ELSE "${c}" || '_b${k}' END` : `"${c}"`));
        db.prepare(
          `INSERT INTO "${table}" (${cols.map((c) => `"${c}"`).join(', ')}) SELECT ${exprs.join(', ')} FROM "${table}" ORDER BY rowid LIMIT ?`,
        ).run(originals.get(table)!);
      }
    })();
  }
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}

export interface GenerateOptions {
  root?: string;
  log?: (line: string) => void;
}

/** Returns the cached corpus for `spec`, generating it first when missing or stale. */
export function ensureCorpus(spec: CorpusSpec, opts: GenerateOptions = {}): CorpusManifest {
  const root = opts.root ?? path.join(benchDir, '.corpus', `scale-${spec.scale}`);
  const manifestFile = path.join(root, 'manifest.json');
  if (fs.existsSync(manifestFile)) {
    const m = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as CorpusManifest;
    if (m.version === VERSION && JSON.stringify(m.spec) === JSON.stringify(spec) && fs.existsSync(m.home)) return m;
  }
  const log = opts.log ?? (() => {});
  fs.rmSync(root, { recursive: true, force: true });
  const home = path.join(root, 'home');
  const fixtures = path.join(fixturesDir(), 'home');
  const rng = new Rng(1234);
  const claudeT = loadTemplates(path.join(fixtures, '.claude', 'projects'), claudeTurn).filter((t) => t.turns.length > 0);
  const codexT = loadTemplates(path.join(fixtures, '.codex', 'sessions'), codexTurn).filter((t) => t.turns.length > 0);
  const base = Date.UTC(2026, 0, 1);
  const bytes = { claude: 0, codex: 0, opencode: 0, hermes: 0, claudeMix: 0 };
  let jsonlMessages = 0;
  const perSession = spec.jsonlBytes / (spec.claudeSessions + spec.codexSessions);
  const started = Date.now();

  const claudeFix = (id: string, cwd: string, branch: string) => (r: { [k: string]: Json }, at: Date) => {
    if ('sessionId' in r) r.sessionId = id;
    if ('cwd' in r) r.cwd = cwd;
    if ('gitBranch' in r) r.gitBranch = branch;
    if ('timestamp' in r) r.timestamp = at.toISOString();
  };
  for (let i = 0; i < spec.claudeSessions; i++) {
    const id = newUuid(rng);
    const project = `p${i % 97}`;
    const cwd = `/home/ana/projects/${project}`;
    const file = path.join(home, '.claude', 'projects', `-home-ana-projects-${project}`, `${id}.jsonl`);
    const size = Math.max(4096, Math.round(perSession * (0.2 + rng.next() * 1.6)));
    const r = writeSession(file, rng.pick(claudeT), size, rng, claudeFix(id, cwd, rng.pick(BRANCHES)), new Date(base + i * 3_600_000));
    bytes.claude += r.bytes;
    jsonlMessages += r.records;
    if (i % 500 === 0) log(`claude ${i}/${spec.claudeSessions} (${Math.round((Date.now() - started) / 1000)} s)`);
  }
  const bigId = newUuid(rng);
  const bigFile = path.join(home, '.claude', 'projects', '-home-ana-projects-big', `${bigId}.jsonl`);
  const big = writeSession(bigFile, claudeT[0]!, spec.bigSessionBytes, rng, claudeFix(bigId, '/home/ana/projects/big', 'main'), new Date(base));
  bytes.claude += big.bytes;
  jsonlMessages += big.records;
  log(`big session ${Math.round(big.bytes / 1048576)} MB`);

  const mixHome = path.join(root, 'home-mix');
  for (let i = 0; i < spec.mixSessions; i++) {
    const id = newUuid(rng);
    const project = `m${i % 31}`;
    const file = path.join(mixHome, '.claude', 'projects', `-home-ana-projects-${project}`, `${id}.jsonl`);
    const size = Math.max(4096, Math.round((spec.mixBytes / spec.mixSessions) * (0.2 + rng.next() * 1.6)));
    bytes.claudeMix += writeSession(file, rng.pick(claudeT), size, rng, claudeFix(id, `/home/ana/projects/${project}`, rng.pick(BRANCHES)), new Date(base + i * 3_600_000), true).bytes;
  }
  log(`claude record-mix sessions ${Math.round(bytes.claudeMix / 1048576)} MB`);

  for (let i = 0; i < spec.codexSessions; i++) {
    const id = newUuid(rng);
    const at = new Date(base + i * 3_600_000);
    const day = at.toISOString().slice(0, 10).split('-');
    const stamp = at.toISOString().slice(0, 19).replace(/:/g, '-');
    const file = path.join(home, '.codex', 'sessions', day[0]!, day[1]!, day[2]!, `rollout-${stamp}-${id}.jsonl`);
    const t = rng.pick(codexT);
    const cwd = `/home/ana/projects/p${i % 89}`;
    const branch = rng.pick(BRANCHES);
    const size = Math.max(4096, Math.round(perSession * (0.2 + rng.next() * 1.6)));
    // token_count totals are cumulative in a real rollout: repeated template turns keep adding up.
    const running = { input_tokens: 0, cached_input_tokens: 0, output_tokens: 0, reasoning_output_tokens: 0, total_tokens: 0 };
    const r = writeSession(
      file,
      t,
      size,
      rng,
      (rec, when) => {
        rec.timestamp = when.toISOString();
        const p = rec.payload as { [k: string]: Json } | undefined;
        const info = p?.type === 'token_count' ? (p.info as { [k: string]: Json } | null) : null;
        const last = info?.last_token_usage as { [k: string]: Json } | undefined;
        if (info && last) {
          for (const k of Object.keys(running) as (keyof typeof running)[]) running[k] += typeof last[k] === 'number' ? last[k] : 0;
          info.total_token_usage = { ...running };
        }
        if (rec.type === 'session_meta' && p) {
          p.id = id;
          p.session_id = id;
          p.cwd = cwd;
          p.timestamp = when.toISOString();
          if (p.git && typeof p.git === 'object') (p.git as { [k: string]: Json }).branch = branch;
        }
        if (p && 'cwd' in p) p.cwd = cwd;
        if (p && 'thread_id' in p) p.thread_id = id;
      },
      at,
    );
    bytes.codex += r.bytes;
    jsonlMessages += r.records;
    if (i % 500 === 0) log(`codex ${i}/${spec.codexSessions} (${Math.round((Date.now() - started) / 1000)} s)`);
  }

  const ocDest = path.join(home, '.local', 'share', 'opencode', 'opencode.db');
  cloneSqlite(path.join(fixtures, '.local', 'share', 'opencode', 'opencode.db'), ocDest, spec.opencodeClones, [
    { table: 'session', idCols: ['id', 'parent_id', 'slug'] },
    { table: 'message', idCols: ['id', 'session_id'] },
    { table: 'part', idCols: ['id', 'message_id', 'session_id'] },
  ]);
  bytes.opencode = fs.statSync(ocDest).size;
  log('opencode done');
  const hDest = path.join(home, '.hermes', 'state.db');
  cloneSqlite(path.join(fixtures, '.hermes', 'state.db'), hDest, spec.hermesClones, [
    { table: 'sessions', idCols: ['id', 'parent_session_id', 'title'] },
    { table: 'messages', idCols: ['session_id'], dropCols: ['id'] },
  ]);
  bytes.hermes = fs.statSync(hDest).size;
  log('hermes done');

  const manifest: CorpusManifest = {
    version: VERSION,
    spec,
    home,
    mixHome,
    bigSession: { id: `claude:${bigId}`, file: bigFile, bytes: big.bytes },
    files: { claude: spec.claudeSessions + 1, codex: spec.codexSessions },
    bytes,
    messages: { jsonl: jsonlMessages },
  };
  fs.writeFileSync(manifestFile, JSON.stringify(manifest, null, 2));
  return manifest;
}
