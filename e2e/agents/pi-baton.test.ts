/**
 * The real pi CLI with a real Baton: Baton's pi extension (installed by `installMcp`, as
 * `baton mcp install --agent pi` does) loads in pi, the model's call of a Baton tool reaches Baton's
 * MCP endpoint and its answer comes back to the model; and a pi session written while Baton watches
 * is searchable within a second. pi runs offline against the mock LLM.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBatonCore, type BatonCore } from '../../electron/core/service.js';
import { startLocalServer, type LocalServer } from '../../electron/core/local-server.js';
import { currentEnvironment, type Environment } from '../../electron/core/paths.js';
import { installMcp, mcpInstallStatus } from '../../electron/core/install/mcp-entries/mcp-installer.js';
import { mcpEndpoint } from '../../electron/core/install/endpoint.js';
import { ensureAgentCli, requireCli } from '../../testing/agents/agent-clis.js';
import { agentEnv, MOCK_AGENT, promptArgs } from '../../testing/agents/agent-home.js';
import { startMockLlm, type MockLlm } from '../../testing/agents/mock-llm.js';
import { runAgent } from '../../testing/agents/run-agent.js';

interface Block {
  type: string;
  tool_use_id?: string;
  name?: string;
  content?: unknown;
}

/** The tool_result blocks pi sent back to the model, across all logged requests. */
function toolResults(mock: MockLlm): { text: string; isError: boolean }[] {
  const out: { text: string; isError: boolean }[] = [];
  for (const r of mock.requests()) {
    const messages = (r.body as { messages?: { content?: unknown }[] } | null)?.messages ?? [];
    for (const m of messages) {
      if (!Array.isArray(m.content)) continue;
      for (const b of m.content as (Block & { is_error?: boolean })[]) {
        if (b.type !== 'tool_result') continue;
        const text = Array.isArray(b.content) ? (b.content as { text?: string }[]).map((c) => c.text ?? '').join('\n') : String(b.content ?? '');
        out.push({ text, isError: b.is_error === true });
      }
    }
  }
  return out;
}

describe('real pi with Baton', () => {
  let tmp: string;
  let mock: MockLlm;
  let cli: Awaited<ReturnType<typeof ensureAgentCli>>;
  let core: BatonCore;
  let server: LocalServer;
  let home: string;
  let project: string;
  let piEnvVars: NodeJS.ProcessEnv;
  let environment: Environment;

  beforeAll(async () => {
    cli = await ensureAgentCli('pi');
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'baton-pi-'));
    mock = await startMockLlm({ dir: tmp, env: { MOCK_AGENT: MOCK_AGENT.pi } });
    home = path.join(tmp, 'home');
    project = path.join(home, 'project');
    fs.mkdirSync(project, { recursive: true });
    piEnvVars = agentEnv('pi', home, mock.url);
    // A user who has run pi before: its sessions folder exists when Baton starts watching. (A store
    // root that appears later is picked up at the next reconcile, not by the watcher.)
    fs.mkdirSync(path.join(home, '.pi', 'agent', 'sessions'), { recursive: true });
    // Baton for the same user: it reads pi's store there and keeps its token in BATON_HOME.
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, BATON_HOME: path.join(tmp, 'baton') };
    for (const key of ['PI_CODING_AGENT_DIR', 'PI_CODING_AGENT_SESSION_DIR', 'CLAUDE_CONFIG_DIR', 'CODEX_HOME', 'HERMES_HOME', 'XDG_DATA_HOME', 'XDG_CONFIG_HOME']) delete env[key];
    environment = { ...currentEnvironment(), env, home };
    core = await createBatonCore({ environment, dataDir: env.BATON_HOME!, log: () => {} });
    await core.start();
    await core.syncNow(); // (whenCurrent() never resolves for a home with no stores yet)
    server = await startLocalServer(core, 0);
  }, 300_000);
  afterAll(async () => {
    await server?.close();
    await core?.close();
    await mock?.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('loads Baton’s extension; the model’s Baton tool call reaches Baton and its answer comes back', async () => {
    requireCli(cli);
    const endpoint = mcpEndpoint(Number(new URL(server.url).port), core.tokens.get());
    const [installed] = installMcp({ agent: 'pi', endpoint, environment });
    expect(installed).toMatchObject({ agent: 'pi', ok: true, changed: true });
    const file = path.join(home, '.pi', 'agent', 'extensions', 'baton.ts');
    expect(installed!.file).toBe(file);
    // The token stays in Baton's own file; pi's folder only names where it is.
    expect(fs.readFileSync(file, 'utf8')).not.toContain(core.tokens.get());
    expect(fs.statSync(file).mode & 0o077).toBe(0);
    expect(mcpInstallStatus({ agent: 'pi', endpoint, environment })).toEqual([{ agent: 'pi', file, installed: true, current: true, registeredUrl: endpoint.url }]);

    // A session Baton knows, so the tool's answer can only have come from Baton.
    fs.mkdirSync(path.join(home, '.claude', 'projects', '-w'), { recursive: true });
    const marker = 'e9b1c0de-0000-4000-8000-00000000b470';
    fs.writeFileSync(
      path.join(home, '.claude', 'projects', '-w', `${marker}.jsonl`),
      `${JSON.stringify({ type: 'user', uuid: 'u1', sessionId: marker, cwd: '/w/baton-reach', timestamp: '2026-11-25T10:00:00.000Z', message: { role: 'user', content: 'Port the quokka parser.' } })}\n`,
    );
    await core.syncNow();

    mock.clear();
    const prompt = 'Please call tool `list_sessions` with `{"agent":"claude"}` and tell me what it says.';
    const run = await runAgent({ bin: cli.bin, args: promptArgs('pi', prompt), cwd: project, env: piEnvVars, timeoutMs: 180_000 });
    expect(run.timedOut, `pi timed out:\n${run.stdout}\n${run.stderr}`).toBe(false);
    expect(run.code, `pi failed:\n${run.stdout}\n${run.stderr}`).toBe(0);

    // pi offered the model Baton's tools (as baton__*) …
    const first = mock.requests()[0]!.body as { tools?: { name: string }[] };
    expect(first.tools?.map((t) => t.name)).toEqual(expect.arrayContaining(['baton__list_sessions', 'baton__checkpoint_session', 'baton__search_all_sessions']));
    // … the model called one, and Baton's answer (the session it indexed) went back to the model.
    const results = toolResults(mock);
    expect(results).toHaveLength(1);
    expect(results[0]!.isError, results[0]!.text).toBe(false);
    expect(results[0]!.text).toContain(marker);
    expect(results[0]!.text).toContain('/w/baton-reach');
  }, 300_000);

  it('a new pi session is searchable within a second of being written while Baton watches', async () => {
    requireCli(cli);
    const word = 'wombatpi' + Date.now().toString(36);
    const run = await runAgent({ bin: cli.bin, args: promptArgs('pi', `Say hello ${word}.`), cwd: project, env: piEnvVars, timeoutMs: 180_000 });
    const exited = Date.now();
    expect(run.code, `pi failed:\n${run.stdout}\n${run.stderr}`).toBe(0);
    let hits = core.sources.reader.search(`agent:pi ${word}`);
    while (hits.length === 0 && Date.now() - exited < 10_000) {
      await new Promise((r) => setTimeout(r, 20));
      hits = core.sources.reader.search(`agent:pi ${word}`);
    }
    const waited = Date.now() - exited;
    expect(hits.length, 'the new pi session never became searchable').toBeGreaterThan(0);
    expect(waited, `searchable only after ${waited} ms`).toBeLessThan(1000);
    const session = core.sources.reader.getSession(hits[0]!.sessionId)!;
    expect(session).toMatchObject({ agent: 'pi', cwd: project, userTurns: 1, firstPrompt: `Say hello ${word}.` });
  }, 300_000);

  it('with Baton down, pi still works: no Baton tools offered, nothing breaks', async () => {
    requireCli(cli);
    expect(fs.existsSync(path.join(home, '.pi', 'agent', 'extensions', 'baton.ts'))).toBe(true);
    mock.clear();
    // A port nothing listens on (the extension's URL can be overridden from the environment).
    const env = { ...piEnvVars, BATON_MCP_URL: 'http://127.0.0.1:9/mcp' };
    const run = await runAgent({ bin: cli.bin, args: promptArgs('pi', 'Say hello batondown.'), cwd: project, env, timeoutMs: 180_000 });
    expect(run.code, `pi failed:\n${run.stdout}\n${run.stderr}`).toBe(0);
    const first = mock.requests()[0]!.body as { tools?: { name: string }[] };
    expect(first.tools?.map((t) => t.name)).toContain('read');
    expect(first.tools?.some((t) => t.name.startsWith('baton__'))).toBe(false);
  }, 300_000);
});
