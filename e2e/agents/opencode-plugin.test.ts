/**
 * The OpenCode integration in the real OpenCode (npm `opencode-ai`, pinned): after
 * `baton mcp install --agent opencode --plugin` (no `--port`: Baton serves on a random port, which
 * must be the one registered), OpenCode loads Baton's plugin without an error, its MCP entry
 * reaches Baton with the token read from Baton's token file, a run ends in a push that /ingest
 * accepts, and the session is searchable through that push alone (this Baton has no watcher and
 * never indexed on its own). The npm registry is pointed at a closed loopback port, as on a
 * machine without network: the plugin must not make OpenCode wait for its dependency install.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeClaudeTranscript } from '../../testing/briefs/claude-transcript.js';
import { openUserData } from '../../electron/core/userdata/user-data.js';
import { ensureAgentCli, type AgentCli, requireCli } from '../../testing/agents/agent-clis.js';
import { agentEnv } from '../../testing/agents/agent-home.js';
import { startBatonForAgent, type BatonForAgent } from '../../testing/agents/baton-for-agent.js';
import { startMockLlm, type MockLlm } from '../../testing/agents/mock-llm.js';
import { runAgent, type AgentRun } from '../../testing/agents/run-agent.js';
import type { MockRequest } from '../../testing/agents/mock-llm.js';

const GOAL = 'Teach the quillmoss exporter to write CSV headers';
const SOURCE_SESSION = '5b1e0c7a-2f3d-4e5a-8b9c-0d1e2f3a4b5c';

/** The session's first model request: the agent's own turn (it offers tools), not the title call. */
function firstTurnRequest(requests: MockRequest[], probe: string): MockRequest | undefined {
  return requests.find((r) => {
    const body = r.body as { tools?: unknown[] } | null;
    return JSON.stringify(body).includes(probe) && Array.isArray(body?.tools) && body.tools.length > 0;
  });
}

// Nothing listens on the discard port: every npm fetch is refused at once, as offline.
const OFFLINE_REGISTRY = 'http://127.0.0.1:9/';

describe('Baton in the real OpenCode', () => {
  let cli: AgentCli;
  let tmp: string;
  let mock: MockLlm;
  let baton: BatonForAgent;
  let home: string;
  let project: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    cli = await ensureAgentCli('opencode');
    if (!cli.ok) return;
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'baton-opencode-plugin-'));
    mock = await startMockLlm({ dir: tmp });
    home = path.join(tmp, 'home');
    project = path.join(home, 'project');
    fs.mkdirSync(project, { recursive: true });
    env = { ...agentEnv('opencode', home, mock.url), npm_config_registry: OFFLINE_REGISTRY };
    baton = await startBatonForAgent(home, path.join(tmp, 'baton'), env);
  });
  afterAll(async () => {
    await baton?.close();
    await mock?.stop();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  const run = (prompt: string): Promise<AgentRun> => {
    if (!cli.ok) throw new Error(cli.skip);
    return runAgent({ bin: cli.bin, args: ['run', '--print-logs', prompt], cwd: project, env, timeoutMs: 240_000 });
  };

  it('loads the plugin, connects its MCP entry, and pushes the session so it is searchable at once, without delaying the start', async () => {
    requireCli(cli);
    // The same prompt without Baton, in a HOME of its own: how long a start takes here right now.
    // Not in the test's HOME: an OpenCode run that exits while its background install of
    // @opencode-ai/plugin is still retrying leaves that install's lock behind, and the next start
    // with a plugin waits for the lock to go stale (60 s) — a cost of the baseline, not of Baton.
    const baselineHome = path.join(tmp, 'baseline-home');
    fs.mkdirSync(path.join(baselineHome, 'project'), { recursive: true });
    const baselineEnv = { ...agentEnv('opencode', baselineHome, mock.url), npm_config_registry: OFFLINE_REGISTRY };
    const baseline = await runAgent({ bin: cli.bin, args: ['run', '--print-logs', 'Say hello baselineprobe.'], cwd: path.join(baselineHome, 'project'), env: baselineEnv, timeoutMs: 240_000 });
    expect(baseline.code, baseline.stderr.slice(-3000)).toBe(0);

    const install = await baton.cli(['mcp', 'install', '--agent', 'opencode', '--plugin']);
    expect(install.stdout).toContain(`http://127.0.0.1:${baton.server.port}/mcp`);
    const configDir = path.join(home, '.config', 'opencode');
    const token = baton.core.tokens.get();
    for (const name of ['opencode.json', path.join('plugins', 'baton.js')]) {
      expect(fs.readFileSync(path.join(configDir, name), 'utf8'), `${name} holds the token`).not.toContain(token);
    }
    const status = await baton.cli(['mcp', 'status', '--agent', 'opencode']);
    expect(status.stdout).toMatch(/opencode: registered —/);
    expect(status.stdout).toMatch(/plugin: installed/);

    const prompt = 'Please call tool `list_sessions` with `{}` zanzibarquokka';
    const agentRun = await run(prompt);
    const logs = agentRun.stderr;
    expect(agentRun.code, logs.slice(-3000)).toBe(0);
    // OpenCode logs a plugin it cannot load at ERROR level (shown by --print-logs) and goes on.
    expect(logs).not.toMatch(/failed to load plugin/i);

    // The MCP entry connected with the token from {file:…}: the tool ran in Baton and its result
    // (Baton's session list) went back to the model.
    const toolResults = mock
      .requests()
      .flatMap((r) => ((r.body as { messages?: { role: string; content: unknown }[] }).messages ?? []).filter((m) => m.role === 'tool'));
    expect(JSON.stringify(toolResults)).toMatch(/\\"total\\"/);

    // The plugin's push made Baton read OpenCode's store: the session is searchable, though this
    // Baton never watched or indexed the store itself.
    const deadline = Date.now() + 15_000;
    let hits = await baton.core.api.search({ query: 'zanzibarquokka', limit: 10 });
    while (hits.length === 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      hits = await baton.core.api.search({ query: 'zanzibarquokka', limit: 10 });
    }
    expect(hits.map((h) => h.agent)).toContain('opencode');

    // Offline, OpenCode's install of @opencode-ai/plugin used to make every start with a plugin wait
    // ~70 s for npm's retries; now it is refused at once. Generous margin for a busy machine.
    expect(agentRun.ms, `baseline ${baseline.ms} ms, with Baton ${agentRun.ms} ms`).toBeLessThan(baseline.ms + 40_000);
  });

  it('adds a pending handoff to the first request of the next OpenCode session in the folder, once', async () => {
    requireCli(cli);
    // Runs after the test above, which installed the plugin with `baton mcp install --plugin`.
    expect(fs.existsSync(path.join(home, '.config', 'opencode', 'plugins', 'baton.js'))).toBe(true);
    const sourceHome = path.join(tmp, 'source-home');
    writeClaudeTranscript({
      home: sourceHome,
      sessionId: SOURCE_SESSION,
      cwd: project,
      turns: [
        { role: 'user', text: GOAL },
        { role: 'assistant', text: 'The exporter writes rows; the header line is next.' },
      ],
    });
    const handoff = await baton.cli(['handoff', `claude:${SOURCE_SESSION}`, '--to', 'opencode', '--json', '--no-copy'], { HOME: sourceHome });
    const handed = JSON.parse(handoff.stdout) as { checkpoint: { id: string }; brief: string };
    expect(handed.brief).toContain(GOAL);

    mock.clear();
    const first = await run('Continue please firstprobe.');
    expect(first.code, first.stderr.slice(-3000)).toBe(0);
    const firstRequest = JSON.stringify(firstTurnRequest(mock.requests(), 'firstprobe')?.body);
    expect(firstRequest).toContain(GOAL);
    expect(firstRequest).toContain(`Baton handoff ${handed.checkpoint.id}`);

    const data = openUserData(baton.dataDir);
    const received = data.getCheckpoint(handed.checkpoint.id)!;
    data.close();
    expect(received.status).toBe('received');
    expect(received.handoff?.receivedBy).toMatch(/^opencode:ses_/);

    // Injected once: the next session in the same folder starts as it would without Baton.
    mock.clear();
    const second = await run('Say hello secondprobe.');
    expect(second.code, second.stderr.slice(-3000)).toBe(0);
    const secondRequest = firstTurnRequest(mock.requests(), 'secondprobe');
    expect(secondRequest).toBeDefined();
    expect(JSON.stringify(secondRequest?.body)).not.toContain(GOAL);
    expect(JSON.stringify(secondRequest?.body)).not.toContain('Baton handoff');
  });
});
