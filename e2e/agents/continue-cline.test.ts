/**
 * Continue natively into the real Cline CLI 3.0.65 (offline, the mock LLM): a Claude Code fixture
 * session written by Baton's Cline writer is resumed by Cline's own `cline --id <id>` — a TUI only,
 * so it runs in tmux — whose first model request carries the brief's decision and the source's
 * latest user turn; a second prompt appends to the same session; `/quit` exits 0; `cline history`
 * lists it; Baton's reader reads it all back; the undo steps take the written files away again.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clineWriter } from '../../electron/core/continue/targets/cline-writer.js';
import { runUndo } from '../../electron/core/continue/undo-steps.js';
import { createClineAdapter } from '../../electron/core/sources/cline/cline-adapter.js';
import { LATEST_USER_TURN, PLANTED_DECISION } from '../../testing/continue-plan.js';
import { expectHistoryInRequest, makeContinueScene, requestWith, sessionTexts, type ContinueScene } from '../../testing/agents/continue-scene.js';
import { stopClineHub } from '../../testing/agents/homes/cline.js';
import { runAgent } from '../../testing/agents/run-agent.js';
import { hasTmux, startTui, type Tui } from '../../testing/agents/tmux-tui.js';

interface StoredMessage {
  role: string;
  content: { type: string; text?: string }[];
}

describe('continue natively in the real Cline CLI', () => {
  let scene: ContinueScene;
  let tui: Tui | null = null;
  beforeAll(async () => {
    // Cline has run in this home before (its sessions folder exists): what the writer's check asks for.
    scene = await makeContinueScene('cline', clineWriter, async ({ env, project, bin }) => {
      const once = await runAgent({ bin, args: ['Say hello setupprobe.'], cwd: project, env, timeoutMs: 180_000 });
      expect(once.code, once.stdout + once.stderr).toBe(0);
    });
  }, 600_000);
  afterAll(async () => {
    tui?.stop();
    if (scene) stopClineHub(scene.home);
    await scene?.stop();
  });

  it('resumes in the TUI with the history, appends a second turn, lists it, and undoes', async () => {
    expect(hasTmux(), 'tmux is needed to drive Cline’s TUI').toBe(true);
    const id = scene.result.nativeId;
    expect(scene.result.resume).toEqual(['cline', '--id', id]);
    const transcript = scene.staged.files[0]!.finalPath;
    const stored = () => (JSON.parse(fs.readFileSync(transcript, 'utf8')) as { messages: StoredMessage[] }).messages;
    /** The prompt is in the session and an answer follows it. */
    const answered = (probe: string) => {
      const messages = stored();
      const at = messages.findIndex((m) => m.role === 'user' && JSON.stringify(m.content).includes(probe));
      return at >= 0 && messages.slice(at + 1).some((m) => m.role === 'assistant' && m.content.some((b) => b.type === 'text' && b.text));
    };
    const waitUntil = async (what: () => boolean, label: string) => {
      const end = Date.now() + 120_000;
      while (!what()) {
        if (Date.now() > end) throw new Error(`${label}; last screen:\n${tui?.screen() ?? ''}`);
        await new Promise((r) => setTimeout(r, 250));
      }
    };

    // The resume command as Baton gives it, in a shell that keeps Cline's exit code.
    const exitFile = path.join(scene.tmp, 'cline-exit');
    tui = startTui({ bin: '/bin/sh', args: ['-c', '"$0" --id "$1"; echo $? > "$2"', scene.bin, id, exitFile], cwd: scene.project, env: scene.env });
    /** Types a prompt once the input is idle, and sends it once the input shows it (keys typed while Cline redraws are lost). */
    const prompt = async (text: string) => {
      await tui!.waitFor(/❯ Ask anything/, 60_000);
      tui!.type(text);
      await tui!.waitFor(new RegExp(`❯ ${text.replace(/[.?]/g, '\\$&')}\\s*$`, 'm'), 10_000);
      tui!.keys('Enter');
    };
    scene.mock.clear();
    await prompt('Please go on firstprobe.');
    await waitUntil(() => answered('firstprobe'), 'the first prompt was never answered');
    expectHistoryInRequest(requestWith(scene.mock.requests(), 'firstprobe'), clineWriter, PLANTED_DECISION, LATEST_USER_TURN);

    await prompt('And then secondprobe.');
    await waitUntil(() => answered('secondprobe'), 'the second prompt was never answered');
    // The second request still carries the first turn: it went on in the same session.
    expect(JSON.stringify(requestWith(scene.mock.requests(), 'secondprobe').body)).toContain('firstprobe');
    await prompt('/quit');
    await tui.waitExit(30_000);
    expect(fs.readFileSync(exitFile, 'utf8').trim()).toBe('0');

    const history = await runAgent({ bin: scene.bin, args: ['history', '--json'], cwd: scene.project, env: scene.env, timeoutMs: 120_000 });
    expect(history.code, history.stdout + history.stderr).toBe(0);
    expect(history.stdout).toContain(id);

    const texts = await sessionTexts(createClineAdapter(scene.writerEnv.storeRoots), id);
    expect(texts.some((t) => t.includes(PLANTED_DECISION))).toBe(true);
    expect(texts.some((t) => t.includes('firstprobe'))).toBe(true);
    expect(texts.some((t) => t.includes('secondprobe'))).toBe(true);

    expect(runUndo(scene.result.undo).failed).toEqual([]);
    for (const f of scene.staged.files) expect(fs.existsSync(f.finalPath)).toBe(false);
  }, 600_000);
});
