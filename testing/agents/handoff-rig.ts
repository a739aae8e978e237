/**
 * What every real-CLI handoff suite sets up the same way: the agent's CLI, a temp folder, the mock
 * LLM (told which agent it serves where the wire API alone does not say), and per test the handoff
 * scene with the agent's environment pointed at the scene's Baton data dir. Call inside `describe`:
 * it registers the suite's beforeAll/afterAll.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { ensureAgentCli, requireCli, type AgentCli } from './agent-clis.js';
import { agentEnv, MOCK_AGENT, type RealAgent } from './agent-home.js';
import { startMockLlm, type MockLlm } from './mock-llm.js';
import { makeHandoffScene, type HandoffScene } from './handoff-scene.js';

export interface HandoffRig {
  readonly cli: AgentCli;
  readonly mock: MockLlm;
  /**
   * The CLI required (the test fails, with the reason, when it is not installed), then the scene made
   * in the suite's temp folder, the agent's environment for it and the CLI's binary.
   */
  scene(goal: string, sourceSession: string): { scene: HandoffScene; env: NodeJS.ProcessEnv; bin: string };
}

export interface HandoffRigOptions {
  /** Before the mock stops: what the agent left running for the scene's HOME (null: no scene was made). */
  cleanup?: (scene: HandoffScene | null) => void;
}

export function handoffRig(agent: RealAgent, opts: HandoffRigOptions = {}): HandoffRig {
  let cli: AgentCli | null = null;
  let mock: MockLlm | null = null;
  let tmp = '';
  let last: HandoffScene | null = null;
  beforeAll(async () => {
    cli = await ensureAgentCli(agent);
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), `baton-handoff-${agent}-`));
    const mockAgent = MOCK_AGENT[agent];
    mock = await startMockLlm({ dir: tmp, ...(mockAgent ? { env: { MOCK_AGENT: mockAgent } } : {}) });
  }, 300_000);
  afterAll(async () => {
    opts.cleanup?.(last);
    await mock?.stop();
    if (tmp && !process.env.BATON_KEEP_TMP) fs.rmSync(tmp, { recursive: true, force: true });
  });
  const started = <T>(value: T | null, what: string): T => {
    if (value === null) throw new Error(`handoff rig: no ${what} (beforeAll did not run)`);
    return value;
  };
  return {
    get cli() {
      return started(cli, 'agent CLI');
    },
    get mock() {
      return started(mock, 'mock LLM');
    },
    scene(goal, sourceSession) {
      const found = started(cli, 'agent CLI');
      requireCli(found);
      last = makeHandoffScene(tmp, goal, sourceSession);
      const env = { ...agentEnv(agent, last.agentHome, started(mock, 'mock LLM').url), BATON_HOME: last.batonHome };
      return { scene: last, env, bin: found.bin };
    },
  };
}
