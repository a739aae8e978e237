/**
 * Continue natively into the real Factory Droid 0.225 (offline, the mock LLM): a Claude Code fixture
 * session written by Baton's Droid writer is found by Droid's own `droid search`, resumed by
 * `droid exec -s <id>` (exit 0) whose first model request carries the brief's decision and the
 * source's latest user turn, and a second turn appends to the same session file.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { droidWriter } from '../../electron/core/continue/targets/droid-writer.js';
import { createDroidAdapter } from '../../electron/core/sources/droid/droid-adapter.js';
import { LATEST_USER_TURN, PLANTED_DECISION } from '../../testing/continue-plan.js';
import { DROID_MODEL } from '../../testing/agents/homes/droid.js';
import { expectHistoryInRequest, makeContinueScene, requestWith, sessionTexts, type ContinueScene } from '../../testing/agents/continue-scene.js';
import { runAgent } from '../../testing/agents/run-agent.js';

describe('continue natively in the real Factory Droid', () => {
  let scene: ContinueScene;
  beforeAll(async () => {
    scene = await makeContinueScene('droid', droidWriter);
  }, 600_000);
  afterAll(async () => scene?.stop());

  const exec = (prompt: string) => runAgent({ bin: scene.bin, args: ['exec', '-m', DROID_MODEL, '--auto', 'low', '-s', scene.result.nativeId, prompt], cwd: scene.project, env: scene.env, timeoutMs: 240_000 });

  it('finds, resumes with the history, and appends a second turn', async () => {
    const id = scene.result.nativeId;
    expect(scene.result.resume).toEqual(['droid', '--resume', id]);
    const found = await runAgent({ bin: scene.bin, args: ['search', PLANTED_DECISION.split(/\s+/).slice(0, 4).join(' '), '--json'], cwd: scene.project, env: scene.env, timeoutMs: 120_000 });
    expect(found.code, found.stdout + found.stderr).toBe(0);
    expect(found.stdout).toContain(id);

    scene.mock.clear();
    const first = await exec('Please go on firstprobe.');
    expect(first.code, first.stdout + first.stderr).toBe(0);
    expectHistoryInRequest(requestWith(scene.mock.requests().filter((r) => r.url.includes('/chat/completions')), 'firstprobe'), droidWriter, PLANTED_DECISION, LATEST_USER_TURN);

    const second = await exec('And then secondprobe.');
    expect(second.code, second.stdout + second.stderr).toBe(0);
    expect(fs.readFileSync(scene.staged.files[0]!.finalPath, 'utf8')).toContain('secondprobe');
    const texts = await sessionTexts(createDroidAdapter(scene.writerEnv.storeRoots), id);
    expect(texts.some((t) => t.includes(PLANTED_DECISION))).toBe(true);
    expect(texts.some((t) => t.includes('firstprobe'))).toBe(true);
    expect(texts.some((t) => t.includes('secondprobe'))).toBe(true);
  }, 600_000);
});
