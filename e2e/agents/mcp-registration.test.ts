/**
 * `baton mcp install` with the real agent CLIs: Baton serves on a random port (not the "port"
 * setting), and the registration must name that port, keep the token out of Codex's config.toml
 * (it names a variable Codex loads from $CODEX_HOME/.env), leave the file that holds the token
 * private (mode 0600), and still connect: Claude Code's and Qwen Code's own `mcp list` say
 * Connected; Codex, Gemini CLI and Copilot CLI (which names it `baton-list_sessions`) call one of
 * Baton's tools through the mock LLM and the tool's answer (Baton's session list) goes back to the model.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAgentCli, type AgentCli, requireCli } from '../../testing/agents/agent-clis.js';
import { agentEnv, MOCK_AGENT, promptArgs } from '../../testing/agents/agent-home.js';
import { startBatonForAgent, type BatonForAgent } from '../../testing/agents/baton-for-agent.js';
import { startMockLlm, type MockLlm } from '../../testing/agents/mock-llm.js';
import { runAgent } from '../../testing/agents/run-agent.js';

type Agent = 'claude' | 'codex' | 'gemini' | 'qwen' | 'copilot';

const CONFIG: Record<Agent, string> = {
  claude: '.claude.json',
  codex: path.join('.codex', 'config.toml'),
  gemini: path.join('.gemini', 'settings.json'),
  qwen: path.join('.qwen', 'settings.json'),
  copilot: path.join('.copilot', 'mcp-config.json'),
};

describe.each<Agent>(['claude', 'codex', 'gemini', 'qwen', 'copilot'])('Baton registered in the real %s', (agent) => {
  let cli: AgentCli;
  let tmp: string;
  let mock: MockLlm;
  let baton: BatonForAgent;
  let home: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    cli = await ensureAgentCli(agent);
    if (!cli.ok) return;
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), `baton-mcp-${agent}-`));
    const mockAgent = MOCK_AGENT[agent];
    mock = await startMockLlm({ dir: tmp, env: mockAgent ? { MOCK_AGENT: mockAgent } : {} });
    home = path.join(tmp, 'home');
    fs.mkdirSync(path.join(home, 'project'), { recursive: true });
    env = agentEnv(agent, home, mock.url);
    // Claude Code on PATH, as for a user who has it: Baton still edits ~/.claude.json itself (no token in any argv).
    if (agent === 'claude') env = { ...env, PATH: [path.dirname(cli.bin), env.PATH].join(path.delimiter) };
    baton = await startBatonForAgent(home, path.join(tmp, 'baton'), env);
  });
  afterAll(async () => {
    await baton?.close();
    await mock?.stop();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('registers the port Baton serves on, keeps the config private, and connects', async () => {
    requireCli(cli);
    const url = `http://127.0.0.1:${baton.server.port}/mcp`;
    const config = path.join(home, CONFIG[agent]);
    // The agent's own config from its first start, readable by everyone as agents create it.
    if (fs.existsSync(config)) fs.chmodSync(config, 0o644);

    // Registered earlier for another port (the setting's, say): status flags it.
    await baton.cli(['mcp', 'install', '--agent', agent, '--port', '1']);
    const stale = await baton.cli(['mcp', 'status', '--agent', agent]);
    expect(stale.stdout).toContain(`${agent}: registered for http://127.0.0.1:1/mcp, but Baton is at ${url}: MISMATCH`);

    const install = await baton.cli(['mcp', 'install', '--agent', agent]);
    expect(install.stdout).toMatch(new RegExp(url.replace(/[.]/g, '\\.')));
    expect(fs.readFileSync(config, 'utf8')).toContain(url);
    // Codex names an environment variable and loads the token from $CODEX_HOME/.env; the others
    // hold the header, so their config is readable by its owner only.
    const secret = agent === 'codex' ? path.join(home, '.codex', '.env') : config;
    if (agent === 'codex') expect(fs.readFileSync(config, 'utf8')).not.toContain(baton.core.tokens.get());
    expect(fs.readFileSync(secret, 'utf8')).toContain(baton.core.tokens.get());
    expect(fs.statSync(secret).mode & 0o777).toBe(0o600);
    const status = await baton.cli(['mcp', 'status', '--agent', agent]);
    expect(status.stdout).toContain(`${agent}: registered —`);

    // Claude Code says it itself; Qwen Code 0.24 defers MCP tools behind a tool search the mock
    // does not drive, but its own `mcp list` connects to each server and says whether it could.
    if (agent === 'claude' || agent === 'qwen') {
      const list = await runAgent({ bin: cli.bin, args: ['mcp', 'list'], cwd: path.join(home, 'project'), env, timeoutMs: 120_000 });
      expect(list.stdout, list.stdout + list.stderr).toMatch(/baton: .*\bConnected/);
      return;
    }
    // Copilot CLI names MCP tools `<server>-<tool>` (`baton-list_sessions`), and the mock's
    // chat-completions wire calls the offered tool whose name ends in `_<NAME>`: `sessions` selects
    // `baton-list_sessions`, the first of Baton's tools so named (the request log shows it was that one).
    const tool = agent === 'copilot' ? 'sessions' : 'list_sessions';
    const run = await runAgent({
      bin: cli.bin,
      args: promptArgs(agent, `Please call tool \`${tool}\` with \`{}\` now.`),
      cwd: path.join(home, 'project'),
      env,
      timeoutMs: 240_000,
    });
    expect(run.code, (run.stdout + run.stderr).slice(-3000)).toBe(0);
    if (agent === 'copilot') {
      type Body = { messages?: { role?: string; tool_calls?: { function?: { name?: string } }[] }[] };
      const called = mock.requests().flatMap((r) => ((r.body as Body).messages ?? []).flatMap((m) => (m.tool_calls ?? []).map((c) => c.function?.name)));
      expect(called).toContain('baton-list_sessions');
    }
    // Baton's answer to the tool call reached the model in a later request.
    const later = mock.requests().map((r) => JSON.stringify(r.body));
    expect(later.some((body) => /\\"total\\"/.test(body) && body.includes('sessions')), later.slice(-1)[0]?.slice(-2000)).toBe(true);
  });
});
