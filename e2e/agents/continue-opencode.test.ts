/**
 * Continue natively into the real OpenCode 1.18 (offline, the mock LLM) through its own
 * `opencode import`: the session is in `opencode session list`, `opencode run -s <id>` (exit 0)
 * sends the brief's decision and the source's latest user turn in its first model request, a second
 * turn appends to it, continuing the same source state again changes nothing, and the undo step
 * (`opencode session delete`) removes exactly the imported rows.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { continuedMessages } from '../../electron/core/continue/targets/continued-turns.js';
import { openCodeDbPath, openCodeWriter } from '../../electron/core/continue/targets/opencode-writer.js';
import { createOpenCodeAdapter } from '../../electron/core/sources/opencode/index.js';
import { LATEST_USER_TURN, PLANTED_DECISION } from '../../testing/continue-plan.js';
import { expectHistoryInRequest, makeContinueScene, requestWith, sessionTexts, type ContinueScene } from '../../testing/agents/continue-scene.js';
import { runAgent } from '../../testing/agents/run-agent.js';
import Database from 'better-sqlite3';

function rowCounts(db: string, id: string): { session: number; message: number; part: number } {
  const d = new Database(db, { readonly: true });
  try {
    const n = (sql: string) => (d.prepare(sql).get(id) as { n: number }).n;
    return {
      session: n('SELECT count(*) AS n FROM session WHERE id = ?'),
      message: n('SELECT count(*) AS n FROM message WHERE session_id = ?'),
      part: n('SELECT count(*) AS n FROM part WHERE session_id = ?'),
    };
  } finally {
    d.close();
  }
}

describe('continue natively in the real OpenCode', () => {
  let scene: ContinueScene;
  beforeAll(async () => {
    scene = await makeContinueScene('opencode', openCodeWriter, async ({ env, project, bin }) => {
      // OpenCode creates its database on first start.
      const first = await runAgent({ bin, args: ['session', 'list'], cwd: project, env, timeoutMs: 120_000 });
      expect(first.code, first.stdout + first.stderr).toBe(0);
    });
  }, 600_000);
  afterAll(async () => scene?.stop());

  it('lists, resumes with the history, appends a second turn, is idempotent, and undoes exactly its rows', async () => {
    const id = scene.result.nativeId;
    const db = openCodeDbPath(scene.writerEnv);
    const list = await runAgent({ bin: scene.bin, args: ['session', 'list'], cwd: scene.project, env: scene.env, timeoutMs: 120_000 });
    expect(list.code, list.stdout + list.stderr).toBe(0);
    expect(list.stdout).toContain(id);
    // One message row and one text part per planned message.
    const planned = continuedMessages(scene.plan).length;
    expect(planned).toBeGreaterThan(1);
    expect(rowCounts(db, id)).toEqual({ session: 1, message: planned, part: planned });

    scene.mock.clear();
    const first = await runAgent({ bin: scene.bin, args: ['run', '-s', id, 'Please go on firstprobe.'], cwd: scene.project, env: scene.env, timeoutMs: 240_000 });
    expect(first.code, first.stdout + first.stderr).toBe(0);
    expectHistoryInRequest(requestWith(scene.mock.requests(), 'firstprobe'), openCodeWriter, PLANTED_DECISION, LATEST_USER_TURN);
    const second = await runAgent({ bin: scene.bin, args: ['run', '-s', id, 'And then secondprobe.'], cwd: scene.project, env: scene.env, timeoutMs: 240_000 });
    expect(second.code, second.stdout + second.stderr).toBe(0);
    const texts = await sessionTexts(createOpenCodeAdapter(scene.writerEnv.storeRoots), id);
    expect(texts.some((t) => t.includes(PLANTED_DECISION))).toBe(true);
    expect(texts.some((t) => t.includes('firstprobe'))).toBe(true);
    expect(texts.some((t) => t.includes('secondprobe'))).toBe(true);
    const grown = rowCounts(db, id);

    // The same source state again: the same session, and the user's new turns are left alone.
    const again = await openCodeWriter.stage(scene.plan, scene.writerEnv, path.join(scene.tmp, 'staging-again'));
    expect(again.nativeId).toBe(id);
    const repeat = await openCodeWriter.commit(again, scene.plan, scene.writerEnv);
    expect(repeat.nativeId).toBe(id);
    expect(rowCounts(db, id)).toEqual(grown);

    const others = (): number => {
      const d = new Database(db, { readonly: true });
      try {
        return (d.prepare('SELECT count(*) AS n FROM session WHERE id <> ?').get(id) as { n: number }).n;
      } finally {
        d.close();
      }
    };
    const before = others();
    for (const step of scene.result.undo) {
      expect(step.kind).toBe('command');
      if (step.kind !== 'command') continue;
      const [bin, ...args] = step.argv;
      expect(bin).toBe('opencode');
      execFileSync(scene.bin, args, { cwd: step.cwd, env: scene.env, stdio: 'pipe' });
    }
    expect(rowCounts(db, id)).toEqual({ session: 0, message: 0, part: 0 });
    expect(others()).toBe(before);
  }, 600_000);
});
