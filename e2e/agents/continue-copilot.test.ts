/**
 * Continue natively into the real GitHub Copilot CLI 1.0.102 (offline, the mock LLM): a Claude Code
 * fixture session written by Baton's Copilot writer (events.jsonl + workspace.yaml, no
 * session-store.db row) is found by Copilot's own session lookup under the name Baton gave it
 * (`--resume=<name>`), whose first model request carries the brief's decision and the source's
 * latest user turn; `copilot --resume=<id>` (what Baton prints) appends a second turn to the same
 * events.jsonl; undo removes the files Baton wrote. Then the same through `baton continue … --in
 * copilot` and `baton continue --undo`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copilotWriter } from '../../electron/core/continue/targets/copilot-writer.js';
import { runUndo } from '../../electron/core/continue/undo-steps.js';
import { createCopilotAdapter } from '../../electron/core/sources/copilot/copilot-adapter.js';
import { LATEST_USER_TURN, PLANTED_DECISION, SOURCE_NATIVE_ID } from '../../testing/continue-plan.js';
import { expectHistoryInRequest, makeContinueScene, requestWith, sessionTexts, type ContinueScene } from '../../testing/agents/continue-scene.js';
import { runAgent } from '../../testing/agents/run-agent.js';
import { runBaton } from '../../testing/agents/baton-cli.js';

describe('continue natively in the real Copilot CLI', () => {
  let scene: ContinueScene;
  beforeAll(async () => {
    scene = await makeContinueScene('copilot', copilotWriter);
  }, 600_000);
  afterAll(async () => scene?.stop());

  it('is found by its name, resumes with the history, appends a second turn by id, and undoes', async () => {
    const id = scene.result.nativeId;
    const stateDir = path.join(scene.home, '.copilot', 'session-state');
    const events = path.join(stateDir, id, 'events.jsonl');
    const written = fs.readFileSync(events, 'utf8');
    // Baton writes no index row: Copilot's session-store.db does not exist before it runs.
    expect(fs.existsSync(path.join(scene.home, '.copilot', 'session-store.db'))).toBe(false);

    // Copilot's own session lookup finds the session by the name in workspace.yaml.
    scene.mock.clear();
    const byName = await runAgent({ bin: scene.bin, args: [`--resume=${scene.plan.title}`, '-p', 'Please go on firstprobe.', '--allow-all-tools'], cwd: scene.project, env: scene.env, timeoutMs: 240_000 });
    expect(byName.code, byName.stdout + byName.stderr).toBe(0);
    expectHistoryInRequest(requestWith(scene.mock.requests(), 'firstprobe'), copilotWriter, PLANTED_DECISION, LATEST_USER_TURN);
    const afterFirst = fs.readFileSync(events, 'utf8');
    expect(afterFirst.startsWith(written)).toBe(true);
    expect(afterFirst).toContain('firstprobe');

    const second = await scene.resume(['-p', 'And then secondprobe.', '--allow-all-tools']);
    expect(second.code, second.stdout + second.stderr).toBe(0);
    expect(fs.readdirSync(stateDir).filter((d) => /^[0-9a-f-]{36}$/.test(d))).toEqual([id]);
    const texts = await sessionTexts(createCopilotAdapter(scene.writerEnv.storeRoots), id);
    expect(texts.some((t) => t.includes(PLANTED_DECISION))).toBe(true);
    expect(texts.some((t) => t.includes('firstprobe'))).toBe(true);
    expect(texts.some((t) => t.includes('secondprobe'))).toBe(true);

    expect(runUndo(scene.result.undo).failed).toEqual([]);
    for (const f of scene.staged.files) expect(fs.existsSync(f.finalPath), f.finalPath).toBe(false);
  }, 600_000);

  it('`baton continue <ref> --in copilot` writes a session `copilot --resume=<id>` opens; --undo removes it', async () => {
    const env = { ...scene.env, BATON_HOME: path.join(scene.tmp, 'baton') };
    const run = runBaton(['continue', `claude:${SOURCE_NATIVE_ID}`, '--in', 'copilot', '--cwd', scene.project, '--json'], env);
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout) as { session: string; resume: string[] };
    expect(result.resume).toEqual(['copilot', `--resume=${result.session}`]);

    scene.mock.clear();
    const resumed = await runAgent({ bin: scene.bin, args: [...result.resume.slice(1), '-p', 'Go on thirdprobe.', '--allow-all-tools'], cwd: scene.project, env: scene.env, timeoutMs: 240_000 });
    expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0);
    const body = JSON.stringify(requestWith(scene.mock.requests(), 'thirdprobe').body);
    expect(body).toContain('Continued from Claude Code');
    expect(body).toContain(JSON.stringify(LATEST_USER_TURN).slice(1, -1));

    const folder = path.join(scene.home, '.copilot', 'session-state', result.session);
    const undo = runBaton(['continue', '--undo', result.session, '--json'], env);
    expect(undo.code, undo.stderr).toBe(0);
    expect(fs.existsSync(path.join(folder, 'events.jsonl'))).toBe(false);
    expect(fs.existsSync(path.join(folder, 'workspace.yaml'))).toBe(false);
  }, 600_000);
});
