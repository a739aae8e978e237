/**
 * The start-up hook's cost to every agent session: the whole `baton hook session-start` process
 * (Node start, the lean bundle, baton.db opened, one indexed query), wall clock, with nothing
 * pending for this agent and folder but a lived-in baton.db (thousands of checkpoints, handoffs to
 * other agents and folders). `node -e 0` alongside tells a slow host from slow code.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openUserData } from '../electron/core/userdata/user-data.js';
import { goalRow, type BenchContext, type BenchRow } from './harness.js';

const BATON = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'baton.mjs');

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function p95(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)]!;
}

function timeProcess(args: string[], env: NodeJS.ProcessEnv, input: string, runs: number): number[] {
  const samples: number[] = [];
  for (let i = 0; i < runs + 3; i++) {
    const start = process.hrtime.bigint();
    const r = spawnSync(process.execPath, args, { env, input, encoding: 'utf8' });
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (r.status !== 0 || r.stdout !== '') throw new Error(`hook printed or failed: ${r.status} ${r.stdout} ${r.stderr}`);
    if (i >= 3) samples.push(ms); // the first runs warm the page cache
  }
  return samples;
}

export async function run(ctx: BenchContext): Promise<BenchRow[]> {
  const dir = ctx.scratch('hook');
  const batonHome = path.join(dir, 'baton');
  const project = path.join(dir, 'project');
  fs.mkdirSync(project, { recursive: true });
  const data = openUserData(batonHome);
  const count = Math.max(200, Math.round(5000 * Math.min(1, ctx.scale * 10)));
  for (let i = 0; i < count; i++) {
    const handoff = i % 10 === 0;
    const { checkpoint } = data.saveCheckpoint({
      sessionId: `codex:s${i % 300}`,
      idempotencyToken: null,
      summary: `checkpoint ${i} `.repeat(20),
      decisions: ['keep the parser streaming'],
      nextSteps: ['wire caller B'],
      blockers: [],
      itemsCompleted: [],
      itemsAdded: [],
      filesChanged: ['src/a.ts'],
      continuesFrom: null,
      git: null,
      gitFingerprint: {},
      createdAt: new Date(Date.UTC(2026, 10, 1) + i * 60_000).toISOString(),
      handoff: handoff
        ? { target: { agent: i % 20 === 0 ? 'claude' : 'codex', projectDir: path.join(dir, `other-${i}`), worktreeRoot: null, expiresAt: '2099-01-01T00:00:00.000Z' }, brief: 'brief '.repeat(2000) }
        : null,
    });
    if (handoff && i % 30 === 0) data.markReceived(checkpoint.id, new Date().toISOString());
  }
  data.close();
  const env = { PATH: process.env.PATH, HOME: dir, BATON_HOME: batonHome };
  const input = JSON.stringify({ session_id: 'bench-session', cwd: project, hook_event_name: 'SessionStart', source: 'startup' });
  const runs = ctx.scale >= 0.1 ? 100 : 30;
  const hook = timeProcess([BATON, 'hook', 'session-start', '--agent', 'claude'], env, input, runs);
  const bare = timeProcess(['-e', '0'], env, '', runs);
  ctx.log(`hook: ${count} checkpoints in baton.db, ${runs} runs`);
  return [
    goalRow('hook', 'session-start hook, nothing pending, whole process p95', p95(hook), 'ms', { op: '<', target: 150 }, `median ${median(hook).toFixed(0)} ms; ${count} checkpoints in baton.db`),
    goalRow('hook', 'bare `node -e 0` p95 (host reference)', p95(bare), 'ms', null, `median ${median(bare).toFixed(0)} ms`),
  ];
}
