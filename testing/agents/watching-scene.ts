/**
 * Test support for "a session the real agent writes is searchable within a second": a throw-away
 * HOME with a project folder, the mock LLM, and a real Baton core WATCHING that home before the
 * agent ever ran there (its store appears while Baton watches). `searchableWhileRunning` polls the
 * way the UI's search box would while the agent runs, and times it from the prompt reaching disk.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AgentId } from '../../shared/model.js';
import { createBatonCore, type BatonCore } from '../../electron/core/service.js';
import { STORE_ENV_KEYS } from '../fixture-home.js';
import { agentEnv, type RealAgent } from './agent-home.js';
import { startMockLlm, type MockLlm } from './mock-llm.js';
import type { AgentRun } from './run-agent.js';

export interface WatchingScene {
  tmp: string;
  home: string;
  project: string;
  mock: MockLlm;
  core: BatonCore;
  /** The agent's environment: its HOME, pointed at the mock. */
  agentEnv: NodeJS.ProcessEnv;
  close(): Promise<void>;
}

export async function startWatchingScene(agent: RealAgent, projectName: string, mockEnv?: NodeJS.ProcessEnv): Promise<WatchingScene> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), `baton-${agent}-`));
  const home = path.join(tmp, 'home');
  const project = path.join(home, 'projects', projectName);
  fs.mkdirSync(project, { recursive: true });
  const mock = await startMockLlm({ dir: tmp, ...(mockEnv ? { env: mockEnv } : {}) });
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home };
  for (const key of STORE_ENV_KEYS) delete env[key];
  const core = await createBatonCore({ environment: { env, platform: process.platform, home }, dataDir: path.join(tmp, 'baton'), ingest: 'inline', log: () => {} });
  await core.start();
  await core.whenCurrent();
  return {
    tmp,
    home,
    project,
    mock,
    core,
    agentEnv: agentEnv(agent, home, mock.url),
    async close() {
      await core.close();
      await mock.stop();
      fs.rmSync(tmp, { recursive: true, force: true });
    },
  };
}

export interface Searchable {
  run: AgentRun;
  /** When `onDisk` first held, and when `agent:<agent> <token>` first found a hit (0: never). */
  onDiskAt: number;
  foundAt: number;
}

/** Runs the agent while polling search for `token`; waits up to 10 s after it exits for the hit. */
export async function searchableWhileRunning(core: BatonCore, agent: AgentId, token: string, onDisk: () => boolean, runAgent: () => Promise<AgentRun>): Promise<Searchable> {
  let foundAt = 0;
  let onDiskAt = 0;
  let polling = true;
  const poll = (async () => {
    while (polling && foundAt === 0) {
      if (onDiskAt === 0 && onDisk()) onDiskAt = Date.now();
      const hits = await core.api.search({ query: `agent:${agent} ${token}`, limit: 10 });
      if (hits.length > 0) foundAt = Date.now();
      else await new Promise((r) => setTimeout(r, 10));
    }
  })();
  const run = await runAgent();
  const deadline = Date.now() + 10_000;
  while (foundAt === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  polling = false;
  await poll;
  return { run, onDiskAt, foundAt };
}
