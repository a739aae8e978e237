import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../../testing/fixture-home.js';
import { INDEX_FILE, openIndexForWriting } from './index-db.js';
import { SCHEMA_VERSION } from './index-schema.js';

const CHILDREN = 8;
const CHILD_SCRIPT = path.join(import.meta.dirname, '../../../testing/index-open-child.ts');

/** What each round's data dir holds when the children are let go at it. */
type RoundKind = 'new dir' | 'old version' | 'damaged';
const ROUNDS: RoundKind[] = [...Array<RoundKind>(30).fill('new dir'), ...Array<RoundKind>(10).fill('old version'), ...Array<RoundKind>(5).fill('damaged')];

interface ChildOutcome {
  error: string | null;
  logs: string[];
}

/**
 * Separate processes (`baton serve` starting beside a `baton index`, or two CLIs) open the index of
 * a data dir at the same moment: a new dir, one whose index.db has an old schema version, one
 * whose index.db is damaged. Every one must get a connection to the one index.db, that file must
 * come out whole, WAL and current, and only one of them rebuilds or sets aside the old file.
 */
describe('index.db opened by many processes at once', () => {
  let tmp: { dir: string; cleanup(): void };
  beforeEach(() => {
    tmp = makeTempDir('baton-index-race-');
  });
  afterEach(() => tmp.cleanup());

  it('every process opens it; the file is whole, WAL and current; one of them rebuilds or sets aside', async () => {
    const control = tmp.dir;
    const oldIndex = makeOldVersionIndex(path.join(control, 'old-template'));
    for (const [r, kind] of ROUNDS.entries()) {
      const dir = path.join(control, `round-${r}`);
      fs.mkdirSync(dir);
      if (kind === 'old version') fs.copyFileSync(oldIndex, path.join(dir, INDEX_FILE));
      if (kind === 'damaged') fs.writeFileSync(path.join(dir, INDEX_FILE), Buffer.from(Array.from({ length: 65_536 }, (_, i) => (i * 7919 + 13) & 0xff)));
    }

    const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
    const children = Array.from({ length: CHILDREN }, (_, n) => {
      const child = spawn(process.execPath, ['--import', tsx, CHILD_SCRIPT, control, String(n), String(ROUNDS.length)], {
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      const exited = new Promise<{ code: number | null; stderr: string }>((resolve) => child.on('exit', (code) => resolve({ code, stderr })));
      return { child, exited };
    });
    try {
      await waitForFiles(control, Array.from({ length: CHILDREN }, (_, n) => `ready-${n}`), children);
      const problems: string[] = [];
      for (const [r, kind] of ROUNDS.entries()) {
        fs.writeFileSync(path.join(control, `go-${r}`), '');
        const done = Array.from({ length: CHILDREN }, (_, n) => `done-${r}-${n}`);
        await waitForFiles(control, done, children);
        const outcomes = done.map((f) => JSON.parse(fs.readFileSync(path.join(control, f), 'utf8')) as ChildOutcome);
        const found = [
          ...outcomes.flatMap((o, n) => (o.error ? [`child ${n}: ${o.error}`] : [])),
          ...checkLogs(kind, outcomes.flatMap((o) => o.logs)),
          ...checkIndex(kind, path.join(control, `round-${r}`)),
        ];
        problems.push(...found.map((p) => `round ${r} (${kind}): ${p}`));
      }
      expect(problems).toEqual([]);
      for (const { exited } of children) expect(await exited).toEqual({ code: 0, stderr: '' });
    } finally {
      for (const { child } of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  }, 60_000);
});

/** An index.db of the previous schema version, holding a row the rebuild must drop. */
function makeOldVersionIndex(dir: string): string {
  const db = openIndexForWriting(dir);
  db.prepare("UPDATE meta SET value = ? WHERE key = 'schema_version'").run(String(SCHEMA_VERSION - 1));
  db.prepare("INSERT INTO meta (key, value) VALUES ('stale', 'from the old version')").run();
  db.close(); // the last connection checkpoints: the file alone holds everything
  return path.join(dir, INDEX_FILE);
}

/** Exactly one process rebuilds an old index or sets a damaged one aside; a new dir logs nothing. */
function checkLogs(kind: RoundKind, logs: string[]): string[] {
  const expected = { 'new dir': [], 'old version': [/^info: .*schema version .*rebuilt empty/], damaged: [/^warn: .*unusable .*moved to .*index\.db\.corrupt-/] }[kind];
  const ok = logs.length === expected.length && expected.every((re, i) => re.test(logs[i]!));
  return ok ? [] : [`logs ${JSON.stringify(logs)}`];
}

/** What is wrong with a round's index.db once every opener closed it (empty when nothing is). */
function checkIndex(kind: RoundKind, dir: string): string[] {
  const problems: string[] = [];
  const files = fs.readdirSync(dir);
  const setAside = files.filter((f) => /^index\.db\.corrupt-[^-]/.test(f) && !/-(wal|shm)$/.test(f));
  if (setAside.length !== (kind === 'damaged' ? 1 : 0)) problems.push(`set aside: ${setAside.join(', ') || 'none'}`);
  const expectedFiles = new Set([INDEX_FILE, `${INDEX_FILE}-wal`, `${INDEX_FILE}-shm`, ...setAside]);
  const leftovers = files.filter((f) => !expectedFiles.has(f));
  if (leftovers.length > 0) problems.push(`files left beside index.db: ${leftovers.join(', ')}`);
  let db: Database.Database;
  try {
    db = new Database(path.join(dir, INDEX_FILE), { readonly: true, fileMustExist: true });
  } catch (err) {
    return [...problems, `cannot open: ${String(err)}`];
  }
  try {
    const check = db.pragma('quick_check', { simple: true });
    if (check !== 'ok') problems.push(`quick_check: ${String(check)}`);
    const mode = db.pragma('journal_mode', { simple: true });
    if (mode !== 'wal') problems.push(`journal_mode ${String(mode)}`);
    const rows = db.prepare('SELECT key, value FROM meta').all() as { key: string; value: string }[];
    const meta = new Map(rows.map((row) => [row.key, row.value]));
    if (meta.get('schema_version') !== String(SCHEMA_VERSION)) problems.push(`schema_version ${meta.get('schema_version') ?? 'missing'}`);
    if (meta.has('stale')) problems.push('the old version’s rows are still there');
    // A process whose connection ended up on a replaced file wrote its row where nobody reads it.
    const lost = Array.from({ length: CHILDREN }, (_, n) => `opener-${n}`).filter((k) => !meta.has(k));
    if (lost.length > 0) problems.push(`writes lost (connection not on index.db): ${lost.join(', ')}`);
  } catch (err) {
    problems.push(`unreadable: ${String(err)}`);
  } finally {
    db.close();
  }
  return problems;
}

/** Waits for each child's file (`names[n]` from child n); throws if a child exits without writing it. */
async function waitForFiles(dir: string, names: string[], children: { child: { exitCode: number | null } }[]): Promise<void> {
  const written = (n: number) => fs.existsSync(path.join(dir, names[n]!));
  while (!names.every((_, n) => written(n))) {
    const gone = children.findIndex(({ child }, n) => child.exitCode !== null && !written(n));
    if (gone >= 0) throw new Error(`child ${gone} exited without writing ${names[gone]}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
