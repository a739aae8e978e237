import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SourceStatus } from '../../../shared/model.js';
import { makeFixtureHome, makeTempDir, type FixtureHome } from '../../../testing/fixture-home.js';
import { indexFilePath } from '../index/index-db.js';
import { IndexWriteLoop, type IndexWriteLoopOptions } from './index-write-loop.js';
import type { ReadAheadOptions } from './read-ahead.js';
import type { Faults } from '../../../testing/read-ahead-test-adapters.js';
import { allAgentsConfig, environmentOf, fixtureAdapters } from '../../../testing/index-support.js';
import { defaultAdapterModule } from './worker-launch.js';

const faultModule = pathToFileURL(path.join(path.dirname(fileURLToPath(import.meta.url)), '../../../testing/read-ahead-test-adapters.ts')).href;
const BIG_MESSAGES = 7000; // ~5 batches of the JSONL reader

let home: FixtureHome;
let tmp: { dir: string; cleanup(): void };
let bigFile: string;
let malformedFile: string;
let reference: Rows;
/** Units the worker leaves to the writer's thread (SourceAdapter.readsListingState). */
let writerThreadUnits = 0;
let referenceStatus: SourceStatus[];
let dirs = 0;

interface Rows {
  sessions: unknown[];
  messages: unknown[];
  units: unknown[];
  /** Every term occurrence in the FTS index (the worker prepares the FTS text itself). */
  fts: unknown[];
}

/** Every session, message and unit row of an index (units without their write time). */
function rows(dataDir: string): Rows {
  const db = new Database(indexFilePath(dataDir), { readonly: true });
  try {
    db.exec("CREATE VIRTUAL TABLE temp.terms USING fts5vocab(main, message_fts, 'instance')");
    return {
      fts: db.prepare('SELECT term, doc, offset FROM temp.terms ORDER BY doc, offset, term').all(),
      sessions: db.prepare('SELECT * FROM sessions ORDER BY rowid').all(),
      messages: db.prepare('SELECT * FROM messages ORDER BY id').all(),
      units: (db.prepare('SELECT * FROM units ORDER BY key').all() as Record<string, unknown>[]).map(({ updated_at: _, ...u }) => u),
    };
  } finally {
    db.close();
  }
}

/**
 * Rows without the units' bytes_read work counter: a read resumed from a mid-file cursor re-reads
 * the tail buffer past that cursor, so it legitimately reads more bytes for the same rows.
 */
function content(r: Rows): Rows {
  return { ...r, units: (r.units as Record<string, unknown>[]).map(({ bytes_read: _, ...u }) => u) };
}

function newDataDir(): string {
  return path.join(tmp.dir, `data-${++dirs}`);
}

function readAhead(opts: Partial<ReadAheadOptions> & { faults?: Faults } = {}): ReadAheadOptions {
  const { faults, ...rest } = opts;
  // The writer's thread reads no unit itself unless a test asks it to (counts of worker batches stay exact).
  return faults
    ? { adapterModule: faultModule, adapterArgs: [allAgentsConfig(), environmentOf(home.env), faults], minBytes: 0, writerTakesUpTo: 0, ...rest }
    : { adapterModule: defaultAdapterModule(), adapterArgs: [allAgentsConfig(), environmentOf(home.env)], minBytes: 0, writerTakesUpTo: 0, ...rest };
}

/** One full pass (no watching) and what it reports; `logs` collects warnings. */
async function coldIndex(dataDir: string, opts: Partial<IndexWriteLoopOptions> = {}, logs: string[] = []) {
  const live = new IndexWriteLoop({ dataDir, adapters: fixtureAdapters(home.env), watch: false, log: (_l, m) => logs.push(m), ...opts });
  await live.start();
  const counters = { ...live.sync.counters };
  const status = live.sync.sourceStatus();
  await live.close();
  return { counters, status };
}

/** What a status says, with diagnostics reduced to what they report (not when). */
function comparable(status: SourceStatus[]) {
  return status.map(({ diagnostics, lastReadAt, ...s }) => ({
    ...s,
    read: lastReadAt !== null,
    diagnostics: diagnostics.map((d) => `${d.file}:${d.line ?? ''}: ${d.message}`).sort(),
  }));
}

/** A Claude user record like the session's first one, with a fresh uuid. */
function userLines(file: string, count: number): string {
  const first = fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .map((l) => (l ? (JSON.parse(l) as Record<string, unknown>) : null))
    .find((r) => r?.type === 'user' && typeof (r.message as { content?: unknown })?.content === 'string')!;
  const out: string[] = [];
  for (let n = 0; n < count; n++) {
    const rec = { ...first, uuid: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`, timestamp: new Date(Date.UTC(2024, 0, 1, 0, 0, n)).toISOString(), message: { role: 'user', content: `bulk line ${n} ${'x'.repeat(200)}` } };
    out.push(JSON.stringify(rec));
  }
  return `${out.join('\n')}\n`;
}

beforeAll(async () => {
  home = makeFixtureHome();
  tmp = makeTempDir('baton-read-ahead-');
  const projects = path.join(home.home, '.claude', 'projects');
  const folder = path.join(projects, fs.readdirSync(projects).sort()[0]!);
  const [a, b] = fs.readdirSync(folder).filter((f) => f.endsWith('.jsonl')).sort();
  // A transcript big enough for several batches, oldest of all so it is read first.
  bigFile = path.join(folder, a!);
  fs.appendFileSync(bigFile, userLines(bigFile, BIG_MESSAGES));
  fs.utimesSync(bigFile, new Date('2000-01-01'), new Date('2000-01-01'));
  malformedFile = path.join(folder, b!);
  fs.appendFileSync(malformedFile, '{"type":"user", this is not json\n');
  // Units whose adapter reads with what its own listing learned stay on the writer's thread (one batch each here).
  for (const adapter of fixtureAdapters(home.env).filter((a) => a.readsListingState)) writerThreadUnits += (await adapter.listUnits()).length;
  expect(writerThreadUnits).toBeGreaterThan(0);
  const dataDir = newDataDir();
  const ref = await coldIndex(dataDir);
  expect(ref.counters.batchesReadAhead).toBe(0);
  expect(ref.counters.batches).toBeGreaterThan(4);
  reference = rows(dataDir);
  expect(reference.fts.length).toBeGreaterThan(1000); // the comparison below covers the FTS index too
  referenceStatus = ref.status;
}, 60_000);

afterAll(() => {
  home?.cleanup();
  tmp?.cleanup();
});

describe('read-ahead worker for big syncs', () => {
  it('indexes exactly the same rows as reading on the writer thread, every batch parsed in the worker', async () => {
    const dataDir = newDataDir();
    const { counters } = await coldIndex(dataDir, { readAhead: readAhead() });
    expect(counters.batchesReadAhead).toBe(counters.batches - writerThreadUnits);
    expect(counters.batches).toBeGreaterThan(4);
    const got = rows(dataDir);
    expect(got.sessions.length).toBeGreaterThan(0);
    expect(got.sessions).toEqual(reference.sessions);
    expect(got.messages).toHaveLength(reference.messages.length);
    expect(got.messages).toEqual(reference.messages);
    expect(got.units).toEqual(reference.units);
  }, 60_000);

  it('indexes the same FTS terms whichever thread prepares the FTS texts', async () => {
    for (const formsAheadAt of [0, Number.POSITIVE_INFINITY]) {
      const dataDir = newDataDir();
      const { counters } = await coldIndex(dataDir, { readAhead: readAhead({ formsAheadAt }) });
      expect(counters.batchesReadAhead).toBe(counters.batches - writerThreadUnits);
      expect(rows(dataDir), `formsAheadAt ${formsAheadAt}`).toEqual(reference);
    }
  }, 60_000);

  it('lets the writer read units itself while the worker has nothing ready, with the same rows and status', async () => {
    const dataDir = newDataDir();
    // The first unit (the big one) is the writer's: the worker is still starting when the writer
    // reaches it. How many of the small ones follow depends on when the worker is up; any split
    // must give the same index.
    const { counters, status } = await coldIndex(dataDir, { readAhead: readAhead({ writerTakesUpTo: 1024 ** 3 }) });
    expect(counters.batchesReadAhead).toBeLessThan(counters.batches - writerThreadUnits - 4);
    expect(rows(dataDir)).toEqual(reference);
    expect(comparable(status)).toEqual(comparable(referenceStatus));
  }, 60_000);

  it('keeps tiny flow-control windows exact too (one batch in flight)', async () => {
    const dataDir = newDataDir();
    const { counters } = await coldIndex(dataDir, { readAhead: readAhead({ maxInFlight: 1, maxInFlightBytes: 1 }) });
    expect(counters.batchesReadAhead).toBe(counters.batches - writerThreadUnits);
    expect(rows(dataDir)).toEqual(reference);
  }, 60_000);

  it('forwards diagnostics and reports the same source status as an in-thread cold index', async () => {
    const { status } = await coldIndex(newDataDir(), { readAhead: readAhead() });
    const claude = status.find((s) => s.agent === 'claude')!;
    const lines = fs.readFileSync(malformedFile, 'utf8').trimEnd().split('\n').length;
    expect(claude.diagnostics.some((d) => d.file === malformedFile && d.line === lines)).toBe(true);
    expect(claude.skippedLines).toBeGreaterThan(0);
    expect(claude.messages).toBeGreaterThan(BIG_MESSAGES);
    expect(claude.sessions).toBeGreaterThan(0);
    expect(comparable(status)).toEqual(comparable(referenceStatus));
  }, 60_000);

  it('stays on the writer thread below the size threshold', async () => {
    const dataDir = newDataDir();
    const { counters } = await coldIndex(dataDir, { readAhead: readAhead({ minBytes: 1024 ** 3 }) });
    expect(counters.batchesReadAhead).toBe(0);
    expect(rows(dataDir)).toEqual(reference);
  }, 60_000);

  it('stops promptly mid-run; the next sync resumes with nothing lost or duplicated', async () => {
    const dataDir = newDataDir();
    // Commit after every batch, so the first commit lands inside the big (first) transcript.
    const live = new IndexWriteLoop({ dataDir, adapters: fixtureAdapters(home.env), watch: false, readAhead: readAhead(), groupCommit: { messages: 1, bytes: 1 } });
    let stoppedAt = 0;
    live.sync.on('sessions-changed', () => {
      if (stoppedAt) return;
      stoppedAt = Date.now();
      live.sync.stop();
    });
    await live.start();
    expect(stoppedAt).toBeGreaterThan(0);
    expect(Date.now() - stoppedAt).toBeLessThan(2000);
    const partial = { ...live.sync.counters };
    await live.close();
    expect(partial.batchesReadAhead).toBeGreaterThan(0);
    expect(partial.unitsRead).toBe(0); // stopped inside the first unit
    const big = (rows(dataDir).units as { key: string; cursor: string | null; synced_size: number | null }[]).find((u) => u.key === bigFile)!;
    expect(big.cursor).not.toBeNull();
    expect(big.synced_size).toBeNull();

    const resumed = await coldIndex(dataDir, { readAhead: readAhead() });
    expect(resumed.counters.batchesReadAhead).toBeGreaterThan(0);
    expect(content(rows(dataDir))).toEqual(content(reference));
  }, 60_000);

  it('falls back to reading on the writer thread when the worker dies mid-unit', async () => {
    const dataDir = newDataDir();
    const logs: string[] = [];
    const { counters } = await coldIndex(dataDir, { readAhead: readAhead({ faults: { exitAfterFirstBatchOf: bigFile } }) }, logs);
    expect(logs.some((m) => /read-ahead worker exited/.test(m))).toBe(true);
    expect(counters.batchesReadAhead).toBeGreaterThan(0);
    expect(counters.batchesReadAhead).toBeLessThan(counters.batches);
    expect(content(rows(dataDir))).toEqual(content(reference));
  }, 60_000);

  it('falls back when the worker runs out of its capped heap', async () => {
    const dataDir = newDataDir();
    const logs: string[] = [];
    const { counters } = await coldIndex(dataDir, { readAhead: readAhead({ workerHeapMb: 64, faults: { exhaustHeapAt: malformedFile } }) }, logs);
    expect(logs.some((m) => /read-ahead worker (failed|exited)/.test(m))).toBe(true);
    expect(counters.batchesReadAhead).toBeLessThan(counters.batches);
    expect(content(rows(dataDir))).toEqual(content(reference));
  }, 60_000);

  it('fails a unit whose read throws in the worker as an in-thread failure would, and reads it next time', async () => {
    const dataDir = newDataDir();
    const { status, counters } = await coldIndex(dataDir, { readAhead: readAhead({ faults: { throwOn: malformedFile } }) });
    expect(counters.batchesReadAhead).toBe(counters.batches - writerThreadUnits);
    const claude = status.find((s) => s.agent === 'claude')!;
    expect(claude.lastError).toContain('injected read failure');
    expect(claude.diagnostics.some((d) => d.file === malformedFile && /injected read failure/.test(d.message))).toBe(true);
    const unit = (rows(dataDir).units as { key: string; synced_size: number | null }[]).find((u) => u.key === malformedFile);
    expect(unit?.synced_size ?? null).toBeNull();

    const again = await coldIndex(dataDir);
    expect(again.counters.unitsRead).toBe(1);
    expect(rows(dataDir)).toEqual(reference);
  }, 60_000);
});
