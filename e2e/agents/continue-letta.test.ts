/**
 * Continue natively into the real Letta Code 0.32 (local backend, offline, the mock LLM): a Claude
 * Code fixture session written by Baton's Letta writer is read by Letta's own `letta messages
 * transcript --conversation <id>` and listed by its TUI's `/resume` picker, resumed by `letta --conversation <id>` (exit 0) whose first model
 * request carries the brief's decision and the source's latest user turn, and a second turn appends
 * to it; Baton's reader reads it all back; undo removes what was written.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lettaConversationFolder, lettaWriter } from '../../electron/core/continue/targets/letta-writer.js';
import { runUndo } from '../../electron/core/continue/undo-steps.js';
import { createLettaAdapter } from '../../electron/core/sources/letta/letta-adapter.js';
import { promptArgs } from '../../testing/agents/agent-home.js';
import { LATEST_USER_TURN, PLANTED_DECISION } from '../../testing/continue-plan.js';
import { expectHistoryInRequest, makeContinueScene, requestWith, sessionTexts, type ContinueScene } from '../../testing/agents/continue-scene.js';
import { runAgent } from '../../testing/agents/run-agent.js';
import { hasTmux, startTui } from '../../testing/agents/tmux-tui.js';
import { typeIntoLetta } from '../../testing/agents/letta-tui.js';

describe('continue natively in the real Letta Code', () => {
  let scene: ContinueScene;
  beforeAll(async () => {
    // Letta's conversations belong to an agent: one run first makes the local agent.
    scene = await makeContinueScene('letta', lettaWriter, async ({ env, project, bin }) => {
      const first = await runAgent({ bin, args: promptArgs('letta', 'Say hello setupprobe.'), cwd: project, env, timeoutMs: 180_000 });
      expect(first.code, first.stdout + first.stderr).toBe(0);
    });
  }, 600_000);
  afterAll(async () => scene?.stop());

  it('is read by Letta’s own transcript command and /resume list, resumes with the history, appends a second turn, and undoes', async () => {
    const id = scene.result.nativeId;
    expect(scene.result.resume).toEqual(['letta', '--conversation', id]);
    const transcript = await runAgent({ bin: scene.bin, args: ['messages', 'transcript', '--conversation', id], cwd: scene.project, env: scene.env, timeoutMs: 60_000 });
    expect(transcript.code, transcript.stdout + transcript.stderr).toBe(0);
    expect(transcript.stdout).toContain(LATEST_USER_TURN.slice(0, 60));

    // Letta's own conversation list: `/resume` in its TUI names the conversation by its title.
    expect(hasTmux(), 'tmux is needed to drive the Letta TUI').toBe(true);
    const tui = startTui({ bin: scene.bin, args: [], cwd: scene.project, env: scene.env });
    try {
      // Ready once it has said which conversation it opened, with its list of commands.
      await tui.waitFor(/(Resuming|Starting new) conversation[\s\S]*→ \/init/, 90_000);
      await typeIntoLetta(tui, '/resume');
      tui.keys('Enter');
      await tui.waitFor(/Enter select/, 60_000);
      await tui.waitFor(/Continued from Claude Code/, 60_000);
    } finally {
      tui.stop();
    }

    scene.mock.clear();
    const first = await scene.resume(promptArgs('letta', 'Please go on firstprobe.'));
    expect(first.code, first.stdout + first.stderr).toBe(0);
    expectHistoryInRequest(requestWith(scene.mock.requests(), 'firstprobe'), lettaWriter, PLANTED_DECISION, LATEST_USER_TURN);

    const second = await scene.resume(promptArgs('letta', 'And then secondprobe.'));
    expect(second.code, second.stdout + second.stderr).toBe(0);
    const texts = await sessionTexts(createLettaAdapter(scene.writerEnv.storeRoots), id);
    expect(texts.some((t) => t.includes(PLANTED_DECISION))).toBe(true);
    expect(texts.some((t) => t.includes('firstprobe'))).toBe(true);
    expect(texts.some((t) => t.includes('secondprobe'))).toBe(true);
    // Both turns went into Baton's conversation, not a new one.
    const dir = path.join(scene.home, '.letta', 'lc-local-backend', 'conversations', lettaConversationFolder(id));
    expect(fs.readFileSync(path.join(dir, 'messages.jsonl'), 'utf8')).toContain('secondprobe');

    expect(runUndo(scene.result.undo).failed).toEqual([]);
    // Baton's files, the system prompt Letta compiled into that folder on resume, and the folder.
    expect(fs.existsSync(dir)).toBe(false);
  }, 600_000);
});
