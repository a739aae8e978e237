/**
 * The harness every real-agent test stands on: each pinned CLI installs from npm, runs one prompt
 * offline against the mock LLM, and the mock logs the request it sent. A CLI that cannot be
 * installed here skips with the reason.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAgentCli, requireCli } from '../../testing/agents/agent-clis.js';
import { agentEnv, MOCK_AGENT, promptArgs } from '../../testing/agents/agent-home.js';
import { startMockLlm, type MockLlm } from '../../testing/agents/mock-llm.js';
import { runAgent } from '../../testing/agents/run-agent.js';

const AGENTS = ['claude', 'codex', 'opencode', 'gemini', 'qwen', 'pi', 'kilo', 'copilot', 'continue', 'droid', 'letta'] as const;

describe.each(AGENTS)('real %s CLI against the mock LLM', (agent) => {
  let tmp: string;
  let mock: MockLlm;
  let cli: Awaited<ReturnType<typeof ensureAgentCli>>;

  beforeAll(async () => {
    cli = await ensureAgentCli(agent);
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), `baton-harness-${agent}-`));
    const agentName = MOCK_AGENT[agent];
    mock = await startMockLlm({ dir: tmp, env: agentName ? { MOCK_AGENT: agentName } : {} });
  });
  afterAll(async () => {
    await mock?.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('answers a prompt through the mock', async () => {
    requireCli(cli);
    const home = path.join(tmp, 'home');
    const project = path.join(home, 'project');
    fs.mkdirSync(project, { recursive: true });
    const env = agentEnv(agent, home, mock.url);
    const run = await runAgent({ bin: cli.bin, args: promptArgs(agent, 'Say hello harnessprobe42.', home), cwd: project, env, timeoutMs: 180_000 });
    const requests = mock.requests();
    expect(run.timedOut, `${agent} timed out:\n${run.stdout}\n${run.stderr}`).toBe(false);
    expect(run.code, `${agent} failed:\n${run.stdout}\n${run.stderr}`).toBe(0);
    expect(requests.some((r) => JSON.stringify(r.body).includes('harnessprobe42'))).toBe(true);
  });
});
