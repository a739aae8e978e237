/**
 * Continue natively into the real Continue cn 1.5.47 (offline, the mock LLM): cn has saved a
 * session of its own first; a Claude Code fixture session written by Baton's cn writer is in `cn ls`,
 * resumed by `cn --resume` (exit 0; cn's newest document) whose first model request carries the
 * brief's decision and the source's latest user turn, and a second turn appends to it. The undo
 * leaves cn's own session and gives sessions.json back byte for byte.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { continueWriter } from '../../electron/core/continue/targets/continue-writer.js';
import { runUndo } from '../../electron/core/continue/undo-steps.js';
import { createContinueAdapter } from '../../electron/core/sources/continue-cli/continue-adapter.js';
import { LATEST_USER_TURN, PLANTED_DECISION } from '../../testing/continue-plan.js';
import { expectHistoryInRequest, makeContinueScene, requestWith, sessionTexts, type ContinueScene } from '../../testing/agents/continue-scene.js';
import { runAgent } from '../../testing/agents/run-agent.js';

const documents = (dir: string) => fs.readdirSync(dir).filter((f) => f.endsWith('.json') && f !== 'sessions.json').sort();

describe('continue natively in the real Continue cn', () => {
  let scene: ContinueScene;
  let sessionsDir: string;
  let cnIndex: Buffer;
  let cnDocs: string[];
  beforeAll(async () => {
    scene = await makeContinueScene('continue', continueWriter, async ({ env, project, bin }) => {
      // A session cn saved itself before Baton writes: its document and sessions.json entry must survive.
      const own = await runAgent({ bin, args: ['-p', 'Hello from cn itself.'], cwd: project, env, timeoutMs: 180_000 });
      expect(own.code, own.stdout + own.stderr).toBe(0);
      sessionsDir = path.join(env.HOME!, '.continue', 'sessions');
      cnIndex = fs.readFileSync(path.join(sessionsDir, 'sessions.json'));
      cnDocs = documents(sessionsDir);
      expect(cnDocs).toHaveLength(1);
    });
  }, 600_000);
  afterAll(async () => scene?.stop());

  it('is in `cn ls`, resumes with the history, appends a second turn; undo gives cn’s index back', async () => {
    const id = scene.result.nativeId;
    const list = await runAgent({ bin: scene.bin, args: ['ls', '--json'], cwd: scene.project, env: scene.env, timeoutMs: 120_000 });
    expect(list.code, list.stderr).toBe(0);
    const listed = (JSON.parse(list.stdout.slice(list.stdout.indexOf('{'))) as { sessions: { id: string; title: string; workspaceDirectory: string }[] }).sessions;
    expect(listed.find((s) => s.id === id)).toMatchObject({ title: scene.plan.title, workspaceDirectory: scene.project });
    expect(listed.map((s) => s.id)).toEqual(expect.arrayContaining([cnDocs[0]!.replace(/\.json$/, '')]));

    scene.mock.clear();
    const first = await scene.resume(['-p', 'Please go on firstprobe.']);
    expect(first.code, first.stdout + first.stderr).toBe(0);
    expectHistoryInRequest(requestWith(scene.mock.requests(), 'firstprobe'), continueWriter, PLANTED_DECISION, LATEST_USER_TURN);

    const second = await scene.resume(['-p', 'And then secondprobe.']);
    expect(second.code, second.stdout + second.stderr).toBe(0);
    // Both turns went into Baton's document: no third session.
    expect(documents(sessionsDir)).toEqual([...cnDocs, `${id}.json`].sort());
    const texts = await sessionTexts(createContinueAdapter(scene.writerEnv.storeRoots), id);
    expect(texts.some((t) => t.includes(PLANTED_DECISION))).toBe(true);
    expect(texts.some((t) => t.includes('firstprobe'))).toBe(true);
    expect(texts.some((t) => t.includes('secondprobe'))).toBe(true);

    // cn rewrote sessions.json on each resume (its messageCount); the undo still gives cn's bytes back.
    expect(fs.readFileSync(path.join(sessionsDir, 'sessions.json')).equals(cnIndex)).toBe(false);
    expect(runUndo(scene.result.undo).failed).toEqual([]);
    expect(fs.readFileSync(path.join(sessionsDir, 'sessions.json')).equals(cnIndex)).toBe(true);
    expect(documents(sessionsDir)).toEqual(cnDocs);
  }, 600_000);
});
