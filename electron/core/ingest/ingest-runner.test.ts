import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { IndexProgress } from '../../../shared/api-types.js';
import { AGENTS } from '../../../shared/model.js';
import { expectedSessions, makeFixtureHome, makeTempDir, type FixtureHome } from '../../../testing/fixture-home.js';
import { corpusSpec, ensureCorpus } from '../../../bench/corpus.js';
import { allAgentsConfig, environmentOf, fixtureAdapters } from '../../../testing/index-support.js';
import { IngestRunner, type IngestRunnerOptions } from './ingest-runner.js';
import { restartDelay, type RestartPolicy } from './ingest-supervisor.js';
import type { Faults } from '../../../testing/read-ahead-test-adapters.js';
import { IndexWriteLoop } from './index-write-loop.js';
import { SessionIndex } from '../index/session-index.js';

const here = path.dirname(fileURLToPath(import.meta.url));

describe('IngestRunner with ingest in a worker thread', () => {
  let home: FixtureHome;
  beforeEach(() => (home = makeFixtureHome()));
  afterEach(() => home.cleanup());

  it('cold-indexes in the worker, reports progress, streams changes, stops cleanly', async () => {
    const service = new IngestRunner({
      dataDir: home.env.BATON_HOME!,
      ingest: { kind: 'worker', adapterArgs: [allAgentsConfig(), environmentOf(home.env)] },
      debounceMs: 20,
    });
    const phases: IndexProgress['phase'][] = [];
    service.on('progress', (p) => phases.push(p.phase));
    const changed = new Set<string>();
    service.on('sessions-changed', (ids) => ids.forEach((id) => changed.add(id)));
    await service.start();
    await service.whenCurrent();
    expect(phases).toContain('indexing');
    await until(() => service.progress().phase === 'watching');
    expect(service.progress().bytesDone).toBe(service.progress().bytesTotal);
    expect(service.index.listSessions({ limit: 1000 }).total).toBe(expectedSessions().length);
    const status = await service.sourceStatus();
    expect(status.map((s) => s.agent).sort()).toEqual([...AGENTS].sort());

    const e = expectedSessions().find((x) => x.agent === 'claude')!;
    const file = service.index.getSession(`claude:${e.id}`)!.sourcePath;
    changed.clear();
    fs.rmSync(file);
    await until(() => changed.has(`claude:${e.id}`));
    expect(service.index.getSession(`claude:${e.id}`)!.sourceGone).toBe(true);
    await service.stop();
  });
});

describe('IngestRunner keeps its ingest worker running', () => {
  const faultModule = pathToFileURL(path.join(here, '../../../testing/read-ahead-test-adapters.ts')).href;
  const quick: RestartPolicy = { baseDelayMs: 20, maxDelayMs: 100, maxRestarts: 2, healthyAfterMs: 60_000 };
  let home: FixtureHome;
  beforeEach(() => (home = makeFixtureHome()));
  afterEach(() => home.cleanup());

  const serviceWith = (faults: Faults, more: Partial<IngestRunnerOptions> = {}) => {
    const logs: string[] = [];
    const service = new IngestRunner({
      dataDir: home.env.BATON_HOME!,
      ingest: { kind: 'worker', adapterModule: faultModule, adapterArgs: [allAgentsConfig(), environmentOf(home.env), faults] },
      watch: false,
      restartPolicy: quick,
      log: (level, message) => logs.push(`${level}: ${message}`),
      ...more,
    });
    const errors: string[] = [];
    const retryAts: string[] = [];
    service.on('progress', (p) => {
      if (p.phase !== 'error') return;
      errors.push(p.error ?? '');
      if (p.retryAt) retryAts.push(p.retryAt);
    });
    return { service, logs, errors, retryAts };
  };

  it('restarts a worker that died and finishes the index with the new one', async () => {
    const { service, logs, errors, retryAts } = serviceWith({ exitOnList: { onceMarker: path.join(home.home, 'crashed-once') } });
    await service.start();
    await service.whenCurrent();
    expect(errors).toEqual(['ingest worker stopped (exited with code 4); restarting in 1 s']);
    expect(retryAts).toHaveLength(1);
    expect(logs.some((l) => l.startsWith('warn: ingest worker stopped (exited with code 4)'))).toBe(true);
    expect(service.index.listSessions({ limit: 1000 }).total).toBe(expectedSessions().length);
    expect((await service.sourceStatus()).length).toBe(AGENTS.length);
    await service.stop();
  });

  it('gives up after failures in a row, says why, and keeps the read side open', async () => {
    const { service, errors } = serviceWith({ exitOnList: {} });
    await service.start();
    await expect(service.whenCurrent()).rejects.toThrow(/failed 3 times in a row, gave up .*exited with code 4/);
    expect(errors).toHaveLength(3);
    expect(service.progress()).toMatchObject({ phase: 'error' });
    expect(service.progress().retryAt).toBeUndefined();
    expect(service.index.listSessions({ limit: 10 }).total).toBe(0);
    expect(await service.sourceStatus()).toEqual([]);
    await service.stop();
  });

  it('caps the worker heap: a runaway read ends the worker, not the process', async () => {
    const unit = fs.readdirSync(path.join(home.home, '.claude', 'projects'), { recursive: true, withFileTypes: true }).find((e) => e.name.endsWith('.jsonl'))!;
    const { service } = serviceWith({ exhaustHeapAt: path.join(unit.parentPath, unit.name) }, { workerHeapMb: 48, restartPolicy: { ...quick, maxRestarts: 0 } });
    await service.start();
    await expect(service.whenCurrent()).rejects.toThrow(/memory limit|out of memory/i);
    await service.stop();
  }, 60_000);

  it('restart delays double up to a cap, then give up', () => {
    const policy: RestartPolicy = { baseDelayMs: 1000, maxDelayMs: 5000, maxRestarts: 5, healthyAfterMs: 1 };
    expect([1, 2, 3, 4, 5, 6].map((n) => restartDelay(policy, n))).toEqual([1000, 2000, 4000, 5000, 5000, null]);
  });
});

async function until(probe: () => boolean, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Every message of every session, as comparable lines. */
function snapshot(dataDir: string): string[] {
  const index = new SessionIndex(dataDir);
  const rows = index.db
    .prepare('SELECT s.id, m.id % 16777216 AS seq, m.role, m.kind, m.text FROM messages m JOIN sessions s ON s.rowid = m.id / 16777216 ORDER BY s.id, seq')
    .all() as { id: string; seq: number; role: string; kind: string; text: string }[];
  index.close();
  return rows.map((r) => `${r.id}#${r.seq}:${r.role}:${r.kind}:${r.text.length}:${r.text.slice(0, 40)}`);
}

describe('crash safety', () => {
  let tmp: { dir: string; cleanup(): void };
  beforeEach(() => (tmp = makeTempDir('baton-kill-')));
  afterEach(() => tmp.cleanup());

  it('SIGKILL mid cold-index: the next start resumes with no duplicate and no lost message', async () => {
    const corpus = ensureCorpus(corpusSpec(0.004), { root: path.join(tmp.dir, 'corpus') });
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: corpus.home };
    for (const k of ['CLAUDE_CONFIG_DIR', 'CODEX_HOME', 'XDG_DATA_HOME', 'XDG_CONFIG_HOME', 'OPENCODE_DB', 'HERMES_HOME']) delete env[k];
    const dataDir = path.join(tmp.dir, 'killed');
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
    const child = spawn(process.execPath, ['--import', tsx, path.join(here, 'ingest-child.ts'), dataDir], { env, stdio: ['ignore', 'pipe', 'inherit'] });
    let batches = 0;
    let finished = false;
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    await new Promise<void>((resolve) => {
      child.stdout.on('data', (chunk: Buffer) => {
        for (const line of chunk.toString().split('\n')) {
          if (line === 'batch') batches++;
          if (line === 'done') finished = true;
        }
        if (batches >= 3 || finished) resolve();
      });
      child.on('exit', () => resolve());
    });
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    expect(finished).toBe(false);

    const partial = snapshot(dataDir).length;
    expect(partial).toBeGreaterThan(0);
    const resumed = new IndexWriteLoop({ dataDir, adapters: fixtureAdapters(env), watch: false });
    await resumed.start();
    await resumed.close();

    const referenceDir = path.join(tmp.dir, 'reference');
    const reference = new IndexWriteLoop({ dataDir: referenceDir, adapters: fixtureAdapters(env), watch: false });
    await reference.start();
    await reference.close();

    const after = snapshot(dataDir);
    const expected = snapshot(referenceDir);
    expect(after.length).toBeGreaterThan(partial);
    expect(after).toEqual(expected);
  }, 120_000);
});
