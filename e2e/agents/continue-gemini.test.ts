/**
 * Continue natively into the real Gemini CLI 0.61 (offline, the mock LLM): a Claude Code fixture
 * session written by Baton's Gemini writer is listed by `gemini --list-sessions`, resumed by
 * `gemini --resume <id>` (exit 0) whose first model request carries the brief's decision and the
 * source's latest user turn, and a second turn appends to the same session.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { geminiWriter } from '../../electron/core/continue/targets/gemini-writer.js';
import { createGeminiAdapter } from '../../electron/core/sources/gemini/gemini-adapter.js';
import { LATEST_USER_TURN, PLANTED_DECISION } from '../../testing/continue-plan.js';
import { expectHistoryInRequest, makeContinueScene, requestWith, sessionTexts, type ContinueScene } from '../../testing/agents/continue-scene.js';
import { runAgent } from '../../testing/agents/run-agent.js';

describe('continue natively in the real Gemini CLI', () => {
  let scene: ContinueScene;
  beforeAll(async () => {
    scene = await makeContinueScene('gemini', geminiWriter);
  }, 600_000);
  afterAll(async () => scene?.stop());

  it('lists, resumes with the history, and appends a second turn', async () => {
    const id = scene.result.nativeId;
    const list = await runAgent({ bin: scene.bin, args: ['--list-sessions'], cwd: scene.project, env: scene.env, timeoutMs: 120_000 });
    expect(list.code, list.stdout + list.stderr).toBe(0);
    expect(list.stdout + list.stderr).toContain(id);

    scene.mock.clear();
    const first = await scene.resume(['--yolo', '-p', 'Please go on firstprobe.']);
    expect(first.code, first.stdout + first.stderr).toBe(0);
    expectHistoryInRequest(requestWith(scene.mock.requests(), 'firstprobe'), geminiWriter, PLANTED_DECISION, LATEST_USER_TURN);

    const second = await scene.resume(['--yolo', '-p', 'And then secondprobe.']);
    expect(second.code, second.stdout + second.stderr).toBe(0);
    const texts = await sessionTexts(createGeminiAdapter(scene.writerEnv.storeRoots), id);
    expect(texts.some((t) => t.includes(PLANTED_DECISION))).toBe(true);
    expect(texts.some((t) => t.includes('firstprobe'))).toBe(true);
    expect(texts.some((t) => t.includes('secondprobe'))).toBe(true);
  }, 600_000);
});
