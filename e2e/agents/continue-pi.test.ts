/**
 * Continue natively into the real pi 0.73 (offline, the mock LLM): a Claude Code fixture session
 * written by Baton's pi writer is in pi's own session list (`SessionManager.list`, what its
 * `/resume` picker shows), resumed by `pi --session <path>` (exit 0) whose first model request
 * carries the brief's decision and the source's latest user turn, and a second turn appends to it.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { piWriter } from '../../electron/core/continue/targets/pi-writer.js';
import { createPiAdapter } from '../../electron/core/sources/pi/pi-adapter.js';
import { LATEST_USER_TURN, PLANTED_DECISION } from '../../testing/continue-plan.js';
import { expectHistoryInRequest, makeContinueScene, requestWith, sessionTexts, type ContinueScene } from '../../testing/agents/continue-scene.js';
import { runAgent } from '../../testing/agents/run-agent.js';

describe('continue natively in the real pi', () => {
  let scene: ContinueScene;
  beforeAll(async () => {
    scene = await makeContinueScene('pi', piWriter);
  }, 600_000);
  afterAll(async () => scene?.stop());

  it('is in pi’s session list, resumes with the history, and appends a second turn', async () => {
    const file = scene.staged.files[0]!.finalPath;
    // pi's own listing, run in a child with the scene's HOME (pi resolves its agent dir from it).
    const pkg = path.resolve(path.dirname(scene.bin), '..', '@mariozechner', 'pi-coding-agent', 'dist', 'index.js');
    const script = `import(${JSON.stringify(pathToFileURL(pkg).href)}).then(async (m) => { const l = await m.SessionManager.list(process.cwd()); console.log(JSON.stringify(l.map((s) => ({ path: s.path, id: s.id, name: s.name })))); })`;
    const list = await runAgent({ bin: process.execPath, args: ['-e', script], cwd: scene.project, env: scene.env, timeoutMs: 60_000 });
    expect(list.code, list.stderr).toBe(0);
    const listed = JSON.parse(list.stdout.trim().split('\n').at(-1)!) as { path: string; id: string; name?: string }[];
    expect(listed.find((s) => s.path === file)).toMatchObject({ id: scene.result.nativeId, name: scene.plan.title });

    scene.mock.clear();
    const first = await scene.resume(['-p', 'Please go on firstprobe.']);
    expect(first.code, first.stdout + first.stderr).toBe(0);
    expectHistoryInRequest(requestWith(scene.mock.requests(), 'firstprobe'), piWriter, PLANTED_DECISION, LATEST_USER_TURN);

    const second = await scene.resume(['-p', 'And then secondprobe.']);
    expect(second.code, second.stdout + second.stderr).toBe(0);
    const texts = await sessionTexts(createPiAdapter(scene.writerEnv.storeRoots), scene.result.nativeId);
    expect(texts.some((t) => t.includes(PLANTED_DECISION))).toBe(true);
    expect(texts.some((t) => t.includes('firstprobe'))).toBe(true);
    expect(texts.some((t) => t.includes('secondprobe'))).toBe(true);
  }, 600_000);
});
