/**
 * Test support for "a session the real agent writes is searchable within a second": a throw-away
 * HOME with a project folder, the mock LLM, and a real Baton core WATCHING that home before the
 * agent ever ran there (its store appears while Baton watches). `searchableWhileRunning` polls the
 * way the UI's search box would while the agent runs, and times it from the prompt reaching disk;
 * `expectSearchableWithinASecond` is the check every such test makes of it. `watchAgent` sets a
 * suite up around one scene: the pinned CLI, the scene, Baton's local server when a test asks.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import type { AgentId } from '../../shared/model.js';
import { createBatonCore, type BatonCore } from '../../electron/core/service.js';
import { startLocalServer, type LocalServer } from '../../electron/core/local-server.js';
import { STORE_ENV_KEYS } from '../fixture-home.js';
import { agentEnv, type RealAgent } from './agent-home.js';
import { ensureAgentCli, requireCli, type AgentCli } from './agent-clis.js';
import { freePort, startMockLlm, type MockLlm } from './mock-llm.js';
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

export interface WatchedAgent extends WatchingScene {
  /** The pinned CLI. */
  bin: string;
  /** Baton's local server on a free port (started once, closed before the scene). */
  serve(): Promise<LocalServer>;
}

/**
 * Registers the suite's beforeAll/afterAll around one scene watching a fresh HOME (the agent is set
 * up after Baton started watching: its store appears while Baton runs). The function it returns is
 * called in each test: it fails with the reason where the pinned CLI could not be installed.
 */
export function watchAgent(agent: RealAgent, projectName: string, options: { mockEnv?: NodeJS.ProcessEnv; prepare?(scene: WatchingScene): void; beforeClose?(scene: WatchingScene): void } = {}): () => WatchedAgent {
  let cli: AgentCli;
  let scene: WatchingScene | undefined;
  let server: LocalServer | null = null;
  beforeAll(async () => {
    cli = await ensureAgentCli(agent);
    scene = await startWatchingScene(agent, projectName, options.mockEnv);
    options.prepare?.(scene);
  });
  afterAll(async () => {
    await server?.close();
    if (scene) options.beforeClose?.(scene);
    await scene?.close();
  });
  return () => {
    requireCli(cli);
    const s = scene!;
    return {
      ...s,
      bin: cli.bin,
      async serve() {
        if (!server) {
          await s.core.api.updateSettings({ port: await freePort() });
          server = await startLocalServer(s.core);
        }
        return server;
      },
    };
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

/** The run ended on its own with exit 0, and the prompt was searchable within a second of reaching disk. */
export function expectSearchableWithinASecond(label: string, { run, onDiskAt, foundAt }: Searchable): void {
  expect(run.timedOut, `${label} timed out:\n${run.stdout}\n${run.stderr}`).toBe(false);
  expect(run.code, `${label} failed:\n${run.stdout}\n${run.stderr}`).toBe(0);
  expect(foundAt, 'the prompt never became searchable').toBeGreaterThan(0);
  expect(onDiskAt).toBeGreaterThan(0);
  expect(foundAt - onDiskAt).toBeLessThan(1000);
}

/** Writes `notes-<token>.txt` into the project; the prompt asking the agent to read it. */
export function notesPrompt(project: string, token: string): string {
  fs.writeFileSync(path.join(project, `notes-${token}.txt`), 'remember the milk\n');
  return `Please read \`notes-${token}.txt\` and tell me what it says.`;
}

type SessionDetail = Awaited<ReturnType<BatonCore['api']['getSession']>>;

/** The session once the rest of the run (its tool call) has arrived through the watcher too: up to 5 s. */
export async function sessionWithTools(core: BatonCore, sessionId: string): Promise<SessionDetail> {
  const settled = Date.now() + 5000;
  let session = await core.api.getSession({ session: sessionId });
  while (session.toolNames.length === 0 && Date.now() < settled) {
    await new Promise((r) => setTimeout(r, 50));
    session = await core.api.getSession({ session: sessionId });
  }
  return session;
}
