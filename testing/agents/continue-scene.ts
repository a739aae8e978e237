/**
 * A real target CLI continuing a Claude Code session Baton wrote into its store: a throw-away home
 * wired to the mock LLM, the Claude fixture store copied in as the source, the target's CLI first on
 * PATH (so the writer's check finds the real one), the writer's stage → read back → commit, then the
 * target's own resume command with a prompt. What the tests assert on comes from the mock's request
 * log and the target's own files and listings.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import type { CommitResult, ContinuationPlan, NativeWriter, StagedSession, WriterEnv } from '../../electron/core/continue/native-writer.js';
import type { SourceAdapter } from '../../electron/core/sources/types.js';
import { fixturesDir } from '../fixture-home.js';
import { planFromClaudeFixture, readStore } from '../continue-plan.js';
import { writerEnv } from '../continue-writer-suite.js';
import { ensureAgentCli, requireCli } from './agent-clis.js';
import { agentEnv, MOCK_AGENT } from './agent-home.js';
import { startMockLlm, type MockLlm, type MockRequest } from './mock-llm.js';
import { pathWithProjectNode, runAgent, type AgentRun } from './run-agent.js';

export type Target = 'gemini' | 'qwen' | 'pi' | 'opencode' | 'kilo' | 'copilot' | 'continue' | 'droid' | 'letta' | 'cline';

export interface ContinueScene {
  tmp: string;
  home: string;
  project: string;
  env: NodeJS.ProcessEnv;
  bin: string;
  mock: MockLlm;
  writerEnv: WriterEnv;
  plan: ContinuationPlan;
  staged: StagedSession;
  result: CommitResult;
  /** Runs the target's own resume argv (its binary swapped for the pinned one) plus `extra`. */
  resume(extra: string[]): Promise<AgentRun>;
  stop(): Promise<void>;
}

export async function makeContinueScene(target: Target, writer: NativeWriter, prepare?: (s: { env: NodeJS.ProcessEnv; project: string; bin: string }) => Promise<void>): Promise<ContinueScene> {
  const cli = await ensureAgentCli(target);
  requireCli(cli);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), `baton-continue-${target}-`));
  const home = path.join(tmp, 'home');
  const project = path.join(tmp, 'project');
  fs.mkdirSync(project, { recursive: true });
  fs.cpSync(path.join(fixturesDir(), 'home', '.claude'), path.join(home, '.claude'), { recursive: true });
  const mockAgent = MOCK_AGENT[target];
  const mock = await startMockLlm({ dir: tmp, ...(mockAgent ? { env: { MOCK_AGENT: mockAgent } } : {}) });
  const env = { ...agentEnv(target, home, mock.url) };
  env.PATH = pathWithProjectNode([path.dirname(cli.bin), process.env.PATH ?? ''].join(path.delimiter));
  await prepare?.({ env, project, bin: cli.bin });

  const wenv = writerEnv(target, env, home);
  const check = await writer.check(wenv);
  expect(check).toEqual({ ok: true, version: writer.testedVersion });
  const plan = await planFromClaudeFixture(home, target, project, new Date().toISOString());
  const staged = await writer.stage(plan, wenv, path.join(tmp, 'staging'));
  const result = await writer.commit(staged, plan, wenv);
  return {
    tmp,
    home,
    project,
    env,
    bin: cli.bin,
    mock,
    writerEnv: wenv,
    plan,
    staged,
    result,
    resume: (extra) => runAgent({ bin: cli.bin, args: [...result.resume.slice(1), ...extra], cwd: project, env, timeoutMs: 240_000 }),
    async stop() {
      await mock.stop();
      if (!process.env.BATON_KEEP_TMP) fs.rmSync(tmp, { recursive: true, force: true });
    },
  };
}

/** The first model request whose body holds `probe` (the prompt typed in the resumed session). */
export function requestWith(requests: MockRequest[], probe: string): MockRequest {
  const found = requests.find((r) => JSON.stringify(r.body ?? '').includes(probe));
  expect(found, `no model request carries ${probe}`).toBeDefined();
  return found!;
}

/** The resumed request carries the brief's decision and the source's latest user turn, and fits the window. */
export function expectHistoryInRequest(request: MockRequest, writer: NativeWriter, decision: string, latestUserTurn: string): void {
  const body = JSON.stringify(request.body);
  expect(body).toContain(decision);
  expect(body).toContain(JSON.stringify(latestUserTurn).slice(1, -1));
  // A conservative token estimate of the whole request (system prompt and tools included).
  expect(Math.ceil(body.length / 3)).toBeLessThan(writer.contextWindow(null));
}

/** Baton's own reader of the target, over its real store: the session's message texts. */
export async function sessionTexts(adapter: SourceAdapter, nativeId: string): Promise<string[]> {
  const { sessions, messages } = await readStore(adapter);
  const s = sessions.find((x) => x.nativeId === nativeId);
  expect(s, `Baton's reader does not find ${nativeId}`).toBeDefined();
  return (messages.get(s!.id) ?? []).map((m) => m.text);
}
