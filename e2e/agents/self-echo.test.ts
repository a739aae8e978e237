/**
 * Self-echo with the real agents: Claude Code and Codex call Baton's own `search_all_sessions`
 * over MCP (a real Baton core and HTTP server watching the same HOME). The call and its result stay
 * in the agent's transcript, but no search hit may point at them: a search only finds the calling
 * session through what was said in it, never through what Baton answered.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionIndex } from '../../electron/core/index/session-index.js';
import { startMcpHarness, type McpHarness } from '../../testing/mcp/mcp-harness.js';
import { expectedSessions } from '../../testing/fixture-home.js';
import { ensureAgentCli, requireCli } from '../../testing/agents/agent-clis.js';
import { agentEnv } from '../../testing/agents/agent-home.js';
import { startMockLlm, type MockLlm } from '../../testing/agents/mock-llm.js';
import { runAgent } from '../../testing/agents/run-agent.js';

async function until<T>(what: string, probe: () => T | null | undefined | false, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("real agents calling Baton's MCP tools: calls and results feed no search", () => {
  let harness: McpHarness;
  let mock: MockLlm;
  let project: string;
  /** A word said in exactly one fixture session. */
  let word: string;
  let source: string;

  beforeAll(async () => {
    harness = await startMcpHarness();
    mock = await startMockLlm({ dir: path.join(path.dirname(harness.home.home), 'mock') });
    project = path.join(harness.home.home, 'project');
    fs.mkdirSync(project, { recursive: true });
    const e = expectedSessions().find((x) => x.agent === 'codex' && x.firstPrompt && /todo\.txt/.test(x.firstPrompt));
    if (!e) throw new Error('the fixture Codex session about todo.txt is missing');
    source = `codex:${e.id}`;
    word = 'todo';
  });
  afterAll(async () => {
    await mock?.stop();
    await harness?.close();
  });

  /** Hits for the word inside `sessionId`, with the kind and tool of the message each points at. */
  function hitsIn(sessionId: string): { kind: string; toolName: string | null }[] {
    const index = new SessionIndex(harness.home.env.BATON_HOME!);
    try {
      const messages = index.getMessages(sessionId);
      return index
        .search(word, { limit: 200 })
        .filter((h) => h.sessionId === sessionId)
        .map((h) => messages.find((m) => m.seq === h.seq)!)
        .map((m) => ({ kind: m.kind, toolName: m.toolName }));
    } finally {
      index.close();
    }
  }

  function sessionWithBatonCall(agent: string): string | null {
    const index = new SessionIndex(harness.home.env.BATON_HOME!);
    try {
      for (const s of index.listSessions({ agent: agent as 'claude', limit: 500 }).sessions) {
        if (s.cwd !== project) continue;
        if (index.getMessages(s.id).some((m) => m.kind === 'tool_result' && m.text.includes(source.slice(source.indexOf(':') + 1)))) return s.id;
      }
      return null;
    } finally {
      index.close();
    }
  }

  // Codex sessions only: with thirteen agents' fixtures, other agents' newer todo.txt sessions would
  // fill the default 20 hits and leave the source out of the result.
  const prompt = () => `call tool \`search_all_sessions\` with \`${JSON.stringify({ query: word, agent: 'codex' })}\``;

  it('Claude Code: mcp__baton__search_all_sessions and its result are kept but not searchable', async () => {
    const cli = await ensureAgentCli('claude');
    requireCli(cli);
    expect(hitsIn(source).length).toBeGreaterThan(0);
    const env = agentEnv('claude', harness.home.home, mock.url);
    const mcp = path.join(project, 'baton-mcp.json');
    fs.writeFileSync(mcp, JSON.stringify({ mcpServers: { baton: { type: 'http', url: harness.url, headers: { Authorization: `Bearer ${harness.token}` } } } }));
    const run = await runAgent({
      bin: cli.bin,
      args: ['-p', prompt(), '--mcp-config', mcp, '--allowedTools', 'mcp__baton__*,ToolSearch'],
      cwd: project,
      env,
      timeoutMs: 180_000,
    });
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    const id = await until('the Claude session with the Baton call indexed', () => sessionWithBatonCall('claude'));
    const index = new SessionIndex(harness.home.env.BATON_HOME!);
    try {
      const calls = index.getMessages(id).filter((m) => m.toolName === 'mcp__baton__search_all_sessions');
      expect(calls.map((m) => m.kind)).toEqual(['tool_call', 'tool_result']);
    } finally {
      index.close();
    }
    // Found through the prompt (and the agent's answer), never through Baton's call or its result.
    expect(hitsIn(id).filter((h) => h.kind === 'tool_call' || h.kind === 'tool_result')).toEqual([]);
    expect(hitsIn(source).length).toBeGreaterThan(0);
  });

  it('Codex: the call through the mcp__baton namespace and its result are kept but not searchable', async () => {
    const cli = await ensureAgentCli('codex');
    requireCli(cli);
    const env = agentEnv('codex', harness.home.home, mock.url);
    fs.appendFileSync(
      path.join(harness.home.home, '.codex', 'config.toml'),
      `\n[mcp_servers.baton]\nurl = "${harness.url}"\nhttp_headers = { Authorization = "Bearer ${harness.token}" }\n`,
    );
    const run = await runAgent({ bin: cli.bin, args: ['exec', '--skip-git-repo-check', prompt()], cwd: project, env, timeoutMs: 180_000 });
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    const id = await until('the Codex session with the Baton call indexed', () => sessionWithBatonCall('codex'));
    const index = new SessionIndex(harness.home.env.BATON_HOME!);
    try {
      const calls = index.getMessages(id).filter((m) => m.kind === 'tool_call' || m.kind === 'tool_result');
      expect(calls.filter((m) => m.toolName === 'mcp__baton__search_all_sessions').map((m) => m.kind)).toEqual(['tool_call', 'tool_result']);
    } finally {
      index.close();
    }
    expect(hitsIn(id).filter((h) => h.kind === 'tool_call' || h.kind === 'tool_result')).toEqual([]);
  });
});
