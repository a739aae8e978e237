/**
 * What every zero-paste handoff test with a real agent shares: a source session (a Claude Code
 * transcript with the goal) in a home of its own, the project folder, `baton handoff` to the
 * agent, and the checks on what the agent's first model request carried and who received it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { openUserData } from '../../electron/core/userdata/user-data.js';
import { writeClaudeTranscript } from '../briefs/claude-transcript.js';
import { runBaton } from './baton-cli.js';
import type { MockRequest } from './mock-llm.js';

export interface HandoffScene {
  goal: string;
  sourceSession: string;
  /** Where the source session's Claude Code transcript lives. */
  sourceHome: string;
  /** The receiving agent's HOME. */
  agentHome: string;
  /** The project folder (with a `src/` subfolder the next session starts in). */
  project: string;
  batonHome: string;
}

export function makeHandoffScene(tmp: string, goal: string, sourceSession: string): HandoffScene {
  const scene = { goal, sourceSession, sourceHome: path.join(tmp, 'source-home'), agentHome: path.join(tmp, 'agent-home'), project: path.join(tmp, 'project'), batonHome: path.join(tmp, 'baton') };
  fs.mkdirSync(path.join(scene.project, 'src'), { recursive: true });
  writeClaudeTranscript({
    home: scene.sourceHome,
    sessionId: sourceSession,
    cwd: scene.project,
    turns: [
      { role: 'user', text: goal },
      { role: 'assistant', text: 'It now splits on commas; tabs are next.' },
    ],
  });
  return scene;
}

/** `baton handoff claude:<source> --to <agent>`; returns the pending handoff's checkpoint id. */
export function handOffTo(scene: HandoffScene, agent: string, env: NodeJS.ProcessEnv): string {
  const run = runBaton(['handoff', `claude:${scene.sourceSession}`, '--to', agent, '--json', '--no-copy'], { ...env, HOME: scene.sourceHome });
  expect(run.code, run.stderr).toBe(0);
  const handed = JSON.parse(run.stdout) as { checkpoint: { id: string }; brief: string };
  expect(handed.brief).toContain(scene.goal);
  return handed.checkpoint.id;
}

/** The request carries the brief, names the handoff and says how to close it. */
export function expectBrief(request: MockRequest | undefined, scene: HandoffScene, checkpointId: string): void {
  expect(request, 'no model request with the prompt').toBeDefined();
  const body = JSON.stringify(request?.body);
  expect(body).toContain(scene.goal);
  expect(body).toContain(`Baton handoff ${checkpointId}`);
  expect(body).toContain('complete_handoff');
}

export function expectNoBrief(request: MockRequest | undefined, scene: HandoffScene): void {
  expect(request, 'no model request with the prompt').toBeDefined();
  const body = JSON.stringify(request?.body);
  expect(body).not.toContain(scene.goal);
  expect(body).not.toContain('Baton handoff');
}

/** Baton's record of the handoff: received, and by whom (`agent:sessionId`). */
export function receivedBy(scene: HandoffScene, checkpointId: string): string {
  const data = openUserData(scene.batonHome);
  const received = data.getCheckpoint(checkpointId)!;
  data.close();
  expect(received.status).toBe('received');
  return received.handoff?.receivedBy ?? '';
}
