/**
 * Continue natively into the real Kilo Code 7.7.7 (offline, the mock LLM) through its own
 * `kilo import` (OpenCode's importer, kept by the fork): the session is in `kilo session list`,
 * `kilo run --session <id>` (exit 0) sends the brief's decision and the source's latest user turn in
 * its first model request, a second turn appends to it, Baton's Kilo reader reads all of it from
 * kilo.db, continuing the same source state again changes nothing, and the undo step (`kilo session
 * delete`) removes exactly the imported rows.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { continuedMessages } from '../../electron/core/continue/targets/continued-turns.js';
import { kiloDbPath, kiloWriter } from '../../electron/core/continue/targets/kilo-writer.js';
import { createOpenCodeAdapter } from '../../electron/core/sources/opencode/index.js';
import { LATEST_USER_TURN, PLANTED_DECISION } from '../../testing/continue-plan.js';
import { expectHistoryInRequest, makeContinueScene, requestWith, sessionTexts, type ContinueScene } from '../../testing/agents/continue-scene.js';
import { runAgent } from '../../testing/agents/run-agent.js';

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

function otherSessions(db: string, id: string): number {
  const d = new Database(db, { readonly: true });
  try {
    return (d.prepare('SELECT count(*) AS n FROM session WHERE id <> ?').get(id) as { n: number }).n;
  } finally {
    d.close();
  }
}

describe('continue natively in the real Kilo Code', () => {
  let scene: ContinueScene;
  beforeAll(async () => {
    scene = await makeContinueScene('kilo', kiloWriter, async ({ env, project, bin }) => {
      // A session of the user's own, so undo has something to leave alone (and kilo.db exists).
      const own = await runAgent({ bin, args: ['run', 'Say hello kiloownsession.'], cwd: project, env, timeoutMs: 240_000 });
      expect(own.code, own.stdout + own.stderr).toBe(0);
    });
  }, 600_000);
  afterAll(async () => scene?.stop());

  it('lists, resumes with the history, appends a second turn, is idempotent, and undoes exactly its rows', async () => {
    const id = scene.result.nativeId;
    expect(scene.result.resume).toEqual(['kilo', '--session', id]);
    const db = kiloDbPath(scene.writerEnv);
    const list = await runAgent({ bin: scene.bin, args: ['session', 'list'], cwd: scene.project, env: scene.env, timeoutMs: 120_000 });
    expect(list.code, list.stdout + list.stderr).toBe(0);
    expect(list.stdout).toContain(id);
    expect(list.stdout).toContain('Continued from Claude Code');
    const planned = continuedMessages(scene.plan).length;
    expect(planned).toBeGreaterThan(1);
    expect(rowCounts(db, id)).toEqual({ session: 1, message: planned, part: planned });

    scene.mock.clear();
    const first = await runAgent({ bin: scene.bin, args: ['run', '--session', id, 'Please go on kilocontfirst.'], cwd: scene.project, env: scene.env, timeoutMs: 240_000 });
    expect(first.code, first.stdout + first.stderr).toBe(0);
    expectHistoryInRequest(requestWith(scene.mock.requests(), 'kilocontfirst'), kiloWriter, PLANTED_DECISION, LATEST_USER_TURN);
    const second = await runAgent({ bin: scene.bin, args: ['run', '--session', id, 'And then kilocontsecond.'], cwd: scene.project, env: scene.env, timeoutMs: 240_000 });
    expect(second.code, second.stdout + second.stderr).toBe(0);
    // The second turn went on in the same session: its request carries the first.
    expect(JSON.stringify(requestWith(scene.mock.requests(), 'kilocontsecond').body)).toContain('kilocontfirst');
    const texts = await sessionTexts(createOpenCodeAdapter(scene.writerEnv.storeRoots, {}, 'kilo'), id);
    expect(texts.some((t) => t.includes(PLANTED_DECISION))).toBe(true);
    expect(texts.some((t) => t.includes('kilocontfirst'))).toBe(true);
    expect(texts.some((t) => t.includes('kilocontsecond'))).toBe(true);
    const grown = rowCounts(db, id);
    expect(grown.message).toBeGreaterThanOrEqual(planned + 4);

    // The same source state again: the same session, and the user's new turns are left alone.
    const again = await kiloWriter.stage(scene.plan, scene.writerEnv, path.join(scene.tmp, 'staging-again'));
    expect(again.nativeId).toBe(id);
    expect((await kiloWriter.commit(again, scene.plan, scene.writerEnv)).nativeId).toBe(id);
    expect(rowCounts(db, id)).toEqual(grown);

    const before = otherSessions(db, id);
    expect(before).toBeGreaterThan(0);
    for (const step of scene.result.undo) {
      expect(step.kind).toBe('command');
      if (step.kind !== 'command') continue;
      const [bin, ...args] = step.argv;
      expect(bin).toBe('kilo');
      execFileSync(scene.bin, args, { cwd: step.cwd, env: scene.env, stdio: 'pipe' });
    }
    expect(rowCounts(db, id)).toEqual({ session: 0, message: 0, part: 0 });
    expect(otherSessions(db, id)).toBe(before);
  }, 600_000);
});
