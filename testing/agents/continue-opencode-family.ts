/**
 * The real-CLI test every OpenCode-family target (OpenCode, Kilo Code) passes, offline against the
 * mock LLM: Baton's `<bin> import` puts the session in `<bin> session list` with one message and one
 * part row per planned message; `<bin> run <resume flag> <id>` (exit 0) sends the brief's decision
 * and the source's latest user turn in its first model request, a second turn appends to it and
 * Baton's reader reads all of it from the database; continuing the same source state again changes
 * nothing; and the undo step (`<bin> session delete`) removes exactly the imported rows, leaving the
 * user's own session alone.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NativeWriter, WriterEnv } from '../../electron/core/continue/native-writer.js';
import { continuedMessages } from '../../electron/core/continue/targets/continued-turns.js';
import type { SourceAdapter } from '../../electron/core/sources/types.js';
import { LATEST_USER_TURN, PLANTED_DECISION } from '../continue-plan.js';
import { expectHistoryInRequest, makeContinueScene, requestWith, sessionTexts, type ContinueScene } from './continue-scene.js';
import { runAgent } from './run-agent.js';

export interface OpenCodeFamilyContinue {
  target: 'opencode' | 'kilo';
  label: string;
  writer: NativeWriter;
  dbPath(env: WriterEnv): string;
  adapter(roots: string[]): SourceAdapter;
  /** The resume argv the writer returns (its binary first); `run` takes the same flag. */
  resume(id: string): string[];
}

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

export function openCodeFamilyContinueTest(o: OpenCodeFamilyContinue): void {
  const probe = (word: string): string => `${o.target}cont${word}`;
  describe(`continue natively in the real ${o.label}`, () => {
    let scene: ContinueScene;
    beforeAll(async () => {
      scene = await makeContinueScene(o.target, o.writer, async ({ env, project, bin }) => {
        // A session of the user's own, so undo has something to leave alone (and the database exists).
        const own = await runAgent({ bin, args: ['run', `Say hello ${o.target}ownsession.`], cwd: project, env, timeoutMs: 240_000 });
        expect(own.code, own.stdout + own.stderr).toBe(0);
      });
    }, 600_000);
    afterAll(async () => scene?.stop());

    it('lists, resumes with the history, appends a second turn, is idempotent, and undoes exactly its rows', async () => {
      const id = scene.result.nativeId;
      expect(scene.result.resume).toEqual(o.resume(id));
      const runIn = (text: string) => runAgent({ bin: scene.bin, args: ['run', ...o.resume(id).slice(1), text], cwd: scene.project, env: scene.env, timeoutMs: 240_000 });
      const db = o.dbPath(scene.writerEnv);
      const list = await runAgent({ bin: scene.bin, args: ['session', 'list'], cwd: scene.project, env: scene.env, timeoutMs: 120_000 });
      expect(list.code, list.stdout + list.stderr).toBe(0);
      expect(list.stdout).toContain(id);
      expect(list.stdout).toContain('Continued from Claude Code');
      // One message row and one text part per planned message.
      const planned = continuedMessages(scene.plan).length;
      expect(planned).toBeGreaterThan(1);
      expect(rowCounts(db, id)).toEqual({ session: 1, message: planned, part: planned });

      scene.mock.clear();
      const first = await runIn(`Please go on ${probe('first')}.`);
      expect(first.code, first.stdout + first.stderr).toBe(0);
      expectHistoryInRequest(requestWith(scene.mock.requests(), probe('first')), o.writer, PLANTED_DECISION, LATEST_USER_TURN);
      const second = await runIn(`And then ${probe('second')}.`);
      expect(second.code, second.stdout + second.stderr).toBe(0);
      // The second turn went on in the same session: its request carries the first.
      expect(JSON.stringify(requestWith(scene.mock.requests(), probe('second')).body)).toContain(probe('first'));
      const texts = await sessionTexts(o.adapter(scene.writerEnv.storeRoots), id);
      expect(texts.some((t) => t.includes(PLANTED_DECISION))).toBe(true);
      expect(texts.some((t) => t.includes(probe('first')))).toBe(true);
      expect(texts.some((t) => t.includes(probe('second')))).toBe(true);
      const grown = rowCounts(db, id);
      expect(grown.message).toBeGreaterThanOrEqual(planned + 4);

      // The same source state again: the same session, and the user's new turns are left alone.
      const again = await o.writer.stage(scene.plan, scene.writerEnv, path.join(scene.tmp, 'staging-again'));
      expect(again.nativeId).toBe(id);
      expect((await o.writer.commit(again, scene.plan, scene.writerEnv)).nativeId).toBe(id);
      expect(rowCounts(db, id)).toEqual(grown);

      const before = otherSessions(db, id);
      expect(before).toBeGreaterThan(0);
      for (const step of scene.result.undo) {
        expect(step.kind).toBe('command');
        if (step.kind !== 'command') continue;
        const [bin, ...args] = step.argv;
        expect(bin).toBe(o.target);
        execFileSync(scene.bin, args, { cwd: step.cwd, env: scene.env, stdio: 'pipe' });
      }
      expect(rowCounts(db, id)).toEqual({ session: 0, message: 0, part: 0 });
      expect(otherSessions(db, id)).toBe(before);
    }, 600_000);
  });
}
