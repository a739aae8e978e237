/**
 * Each real agent CLI (pinned, from npm) against a provider whose plan limit is hit
 * (testing/agents/limit-mock.ts: Anthropic 429 rate_limit_error, OpenAI 429 usage_limit_reached,
 * Gemini 429 RESOURCE_EXHAUSTED), one short session each, with a watching Baton core: the index
 * reports the hit for the agent's session (usage summary, a live `limit-hit` event), and Claude's
 * brief does not take the API error for its conclusion. Headless `gemini -p` (0.61) records nothing of
 * the refusal in its chat file, which the test pins down so a build that starts recording it is noticed
 * (the interactive CLI records an error notice: gemini-limit-tui.test.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LimitHit } from '../../shared/limits.js';
import type { AgentId } from '../../shared/model.js';
import { createBatonCore, type BatonCore } from '../../electron/core/service.js';
import { STORE_ENV_KEYS } from '../../testing/fixture-home.js';
import { ensureAgentCli, requireCli } from '../../testing/agents/agent-clis.js';
import { agentEnv, MOCK_AGENT, promptArgs } from '../../testing/agents/agent-home.js';
import { startLimitMock, type LimitMock } from '../../testing/agents/limit-mock.js';
import { startMockLlm, type MockLlm } from '../../testing/agents/mock-llm.js';
import { runAgent, type AgentRun } from '../../testing/agents/run-agent.js';

type Cli = 'claude' | 'codex' | 'opencode' | 'gemini' | 'qwen' | 'pi';
const CLIS: Cli[] = ['claude', 'codex', 'opencode', 'gemini', 'qwen', 'pi'];
const EXPECTED_KIND: Record<Exclude<Cli, 'gemini'>, LimitHit['kind']> = { claude: 'rate_limit', codex: 'usage_limit', opencode: 'usage_limit', qwen: 'quota', pi: 'rate_limit' };

let tmp: string;
let home: string;
let limit: LimitMock;
let mock: MockLlm;
let core: BatonCore;
const live: LimitHit[] = [];
const runs = new Map<Cli, AgentRun>();

/** A setting that keeps one refusal one request: pi retries a 429 three times by default. */
function noRetries(cli: Cli): void {
  if (cli !== 'pi') return;
  const file = path.join(home, '.pi', 'agent', 'settings.json');
  fs.writeFileSync(file, JSON.stringify({ ...(JSON.parse(fs.readFileSync(file, 'utf8')) as object), retry: { enabled: false } }));
}

async function until<T>(what: string, probe: () => T | null | undefined | false, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

beforeAll(async () => {
  const clis = await Promise.all(CLIS.map((c) => ensureAgentCli(c)));
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'baton-limit-hits-'));
  home = path.join(tmp, 'home');
  fs.mkdirSync(home, { recursive: true });
  limit = await startLimitMock();
  mock = await startMockLlm({ dir: tmp });
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home };
  for (const key of STORE_ENV_KEYS) delete env[key];
  core = await createBatonCore({ environment: { env, platform: process.platform, home }, dataDir: path.join(tmp, 'baton'), ingest: 'inline', log: () => {} });
  core.events.subscribe((e) => {
    if (e.type === 'limit-hit') live.push(e.hit);
  });
  await core.start();
  await core.whenCurrent();

  // Claude Code: a first turn answered, then the next turn refused by the limit.
  const claude = clis[0]!;
  requireCli(claude);
  const claudeProject = path.join(home, 'work', 'claude');
  fs.mkdirSync(claudeProject, { recursive: true });
  const first = await runAgent({ bin: claude.bin, args: promptArgs('claude', 'say hello'), cwd: claudeProject, env: agentEnv('claude', home, mock.url), timeoutMs: 90_000 });
  expect(first.code, first.stderr).toBe(0);

  await Promise.all(
    CLIS.map(async (name, i) => {
      const cli = clis[i]!;
      requireCli(cli);
      const cwd = path.join(home, 'work', name);
      fs.mkdirSync(cwd, { recursive: true });
      // Qwen Code talks to Qwen's providers, whose plan quota answer the mock gives under /qwen.
      const cliEnv = { ...agentEnv(name, home, name === 'qwen' ? `${limit.url}/qwen` : limit.url), ...(MOCK_AGENT[name] ? { MOCK_AGENT: MOCK_AGENT[name] } : {}) };
      noRetries(name);
      const args = name === 'claude' ? ['--continue', ...promptArgs('claude', 'go on')] : promptArgs(name, 'say hello');
      runs.set(name, await runAgent({ bin: cli.bin, args, cwd, env: cliEnv, timeoutMs: 150_000 }));
    }),
  );
  await core.syncNow();
}, 600_000);

afterAll(async () => {
  await core?.close();
  await limit?.stop();
  await mock?.stop();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe('limit hits of the real CLIs, as Baton indexes them', () => {
  it.each(['claude', 'codex', 'opencode', 'qwen', 'pi'] as const)('%s: the refused session is its agent’s limit hit, in the summary and as a live event', async (agent) => {
    const run = runs.get(agent)!;
    expect(run.timedOut, `${agent} did not stop: ${run.stderr.slice(-2000)}`).toBe(false);
    const summary = await core.api.usageSummary({});
    const hit = summary.agents.find((a) => a.agent === agent)?.limitHit;
    expect(hit, `${agent}: no limit hit in ${JSON.stringify(summary.agents.map((a) => [a.agent, a.limitHit]))}`).toBeTruthy();
    expect(hit!.kind).toBe(EXPECTED_KIND[agent]);
    expect(hit!.session.startsWith(`${agent}:`)).toBe(true);
    const session = await core.api.getSession({ session: hit!.session });
    expect(session.cwd).toBe(path.join(home, 'work', agent));
    const usage = (await core.api.usageSummary({ session: hit!.session })).session;
    expect(usage?.limitHit?.key).toBe(hit!.key);
    // The hit happened while Baton watched: announced once, as the live event unattended continuation acts on.
    await until(`${agent}'s limit-hit event`, () => live.find((h) => h.key === hit!.key));
    expect(live.filter((h) => h.session === hit!.session)).toHaveLength(1);
  });

  it('codex, opencode and qwen keep the reset time the provider sent', async () => {
    const summary = await core.api.usageSummary({});
    const reset = new Date(limit.resetEpoch * 1000).toISOString();
    for (const agent of ['codex', 'opencode', 'qwen'] as AgentId[]) expect(summary.agents.find((a) => a.agent === agent)?.limitHit?.resetsAt).toBe(reset);
  });

  it('gemini: its chat file keeps the prompt but nothing of the RESOURCE_EXHAUSTED refusal, so no hit is claimed', async () => {
    expect(limit.requests.some((r) => r.url.includes(':streamGenerateContent') || r.url.includes(':generateContent'))).toBe(true);
    const sessions = await core.api.listSessions({ agent: 'gemini', limit: 50, offset: 0 });
    expect(sessions.sessions.length).toBe(1);
    const summary = await core.api.usageSummary({});
    expect(summary.agents.find((a) => a.agent === 'gemini')?.limitHit ?? null).toBeNull();
  });

  it('claude: the brief quotes the answer before the limit as its conclusion, never the API error, and says it stopped on the limit', async () => {
    const hit = (await core.api.usageSummary({})).agents.find((a) => a.agent === 'claude')!.limitHit!;
    const brief = await core.api.generateBrief({ session: hit.session, format: 'md', redact: true });
    expect(brief.text).toMatch(/Last assistant conclusion \(#\d+\)/);
    expect(brief.text).not.toContain('API Error');
    expect(brief.text).toContain('The session stopped on its rate limit');
  });
});
