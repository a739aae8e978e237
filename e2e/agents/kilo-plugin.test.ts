/**
 * Zero-paste handoff into the real Kilo Code CLI (pinned 7.7.7): `baton mcp install --agent kilo
 * --plugin` puts Baton's OpenCode plugin into ~/.config/kilo/plugins (Kilo, an OpenCode fork, loads
 * it even with KILO_DISABLE_DEFAULT_PLUGINS=1, which only drops Kilo's own default plugins), `baton
 * mcp status` shows it, a pending handoff arrives in the first model request of the next Kilo
 * session in the folder (once), the plugin's push after the turn makes that session searchable in a
 * Baton that never watched Kilo's store, and the uninstall gives the config folder back byte for
 * byte. The npm registry points at a closed loopback port, as on a machine without network: the
 * plugin must not make Kilo wait for its `@kilocode/plugin` install.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAgentCli, type AgentCli, requireCli } from '../../testing/agents/agent-clis.js';
import { agentEnv } from '../../testing/agents/agent-home.js';
import { startBatonForAgent, type BatonForAgent } from '../../testing/agents/baton-for-agent.js';
import { expectBrief, expectNoBrief, handOffTo, makeHandoffScene, receivedBy, type HandoffScene } from '../../testing/agents/handoff-scene.js';
import { startMockLlm, type MockLlm, type MockRequest } from '../../testing/agents/mock-llm.js';
import { runAgent } from '../../testing/agents/run-agent.js';

const GOAL = 'Teach the brambleowl importer to skip blank lines';
const SOURCE_SESSION = '7c2d1e0f-3a4b-4c5d-9e6f-0a1b2c3d4e5f';
// Nothing listens on the discard port: every npm fetch is refused at once, as offline.
const OFFLINE_REGISTRY = 'http://127.0.0.1:9/';
// What Kilo itself writes into its config folder on a start (not Baton's to give back).
const KILO_OWN = new Set(['.gitignore', '.bash-permission-migrated']);

/** The session's own turn (it offers tools), not Kilo's title request. */
function turnRequest(requests: MockRequest[], probe: string): MockRequest | undefined {
  return requests.find((r) => {
    const body = r.body as { tools?: unknown[] } | null;
    return JSON.stringify(body).includes(probe) && Array.isArray(body?.tools) && body.tools.length > 0;
  });
}

/** Every file under `dir` with its bytes (relative paths). */
function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (sub: string) => {
    for (const entry of fs.readdirSync(path.join(dir, sub), { withFileTypes: true })) {
      const rel = path.join(sub, entry.name);
      if (entry.isDirectory()) walk(rel);
      else out.set(rel, fs.readFileSync(path.join(dir, rel)).toString('base64'));
    }
  };
  walk('');
  return out;
}

describe('Baton in the real Kilo Code, through its plugin folder', () => {
  let cli: AgentCli;
  let tmp: string;
  let mock: MockLlm;
  let baton: BatonForAgent;
  let scene: HandoffScene;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    cli = await ensureAgentCli('kilo');
    if (!cli.ok) return;
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'baton-kilo-plugin-'));
    mock = await startMockLlm({ dir: tmp });
    scene = makeHandoffScene(tmp, GOAL, SOURCE_SESSION);
    env = { ...agentEnv('kilo', scene.agentHome, mock.url), npm_config_registry: OFFLINE_REGISTRY, BATON_HOME: scene.batonHome };
    expect(env.KILO_DISABLE_DEFAULT_PLUGINS).toBe('1');
    baton = await startBatonForAgent(scene.agentHome, scene.batonHome, env);
  });
  afterAll(async () => {
    await baton?.close();
    await mock?.stop();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  const kilo = (prompt: string) => {
    if (!cli.ok) throw new Error(cli.skip);
    return runAgent({ bin: cli.bin, args: ['run', '--print-logs', prompt], cwd: scene.project, env, timeoutMs: 240_000 });
  };

  it('installs with `baton mcp install --agent kilo --plugin`, delivers a pending handoff once, pushes the session, and uninstalls byte for byte', async () => {
    requireCli(cli);
    const configDir = path.join(scene.agentHome, '.config', 'kilo');
    const before = snapshot(configDir);

    const install = await baton.cli(['mcp', 'install', '--agent', 'kilo', '--plugin']);
    expect(install.stdout).toContain(path.join(configDir, 'plugins', 'baton.js'));
    const token = baton.core.tokens.get();
    for (const name of ['kilo.json', path.join('plugins', 'baton.js'), '.npmrc']) {
      expect(fs.readFileSync(path.join(configDir, name), 'utf8'), `${name} holds the token`).not.toContain(token);
    }
    const status = await baton.cli(['mcp', 'status', '--agent', 'kilo']);
    expect(status.stdout).toMatch(/kilo: registered —/);
    expect(status.stdout).toContain(`plugin: installed — ${path.join(configDir, 'plugins', 'baton.js')}`);
    // The .npmrc line is in: no warning that offline starts wait for npm.
    expect(status.stdout).not.toMatch(/~70 s/);

    const checkpointId = handOffTo(scene, 'kilo', env);
    mock.clear();
    const first = await kilo('Continue please kiloplugfirst.');
    expect(first.code, first.stderr.slice(-3000)).toBe(0);
    expect(first.stderr).not.toMatch(/failed to load plugin/i);
    expectBrief(turnRequest(mock.requests(), 'kiloplugfirst'), scene, checkpointId);
    expect(receivedBy(scene, checkpointId)).toMatch(/^kilo:ses_/);

    // The plugin's push after the turn made Baton re-read kilo.db (this Baton never watches it).
    const deadline = Date.now() + 15_000;
    let hits = await baton.core.api.search({ query: 'kiloplugfirst', limit: 10 });
    while (hits.length === 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      hits = await baton.core.api.search({ query: 'kiloplugfirst', limit: 10 });
    }
    expect(hits.map((h) => h.sessionId)).toContain(receivedBy(scene, checkpointId));

    // Injected once: the next session in the same folder starts as it would without Baton.
    mock.clear();
    const second = await kilo('Say hello kiloplugsecond.');
    expect(second.code, second.stderr.slice(-3000)).toBe(0);
    expectNoBrief(turnRequest(mock.requests(), 'kiloplugsecond'), scene);

    const uninstall = await baton.cli(['mcp', 'uninstall', '--agent', 'kilo', '--plugin']);
    expect(uninstall.stdout).toMatch(/Removed the Kilo Code plugin/);
    const after = snapshot(configDir);
    // Kilo's own files and Baton's backups of kilo.json aside, the folder is as it was, byte for byte.
    for (const name of after.keys()) if (KILO_OWN.has(name) || /\.bak-\d{8}T\d{6}Z$/.test(name)) after.delete(name);
    expect(after).toEqual(before);
    expect(fs.existsSync(path.join(configDir, 'plugins'))).toBe(false);
    expect(fs.existsSync(path.join(configDir, 'node_modules'))).toBe(false);
    const statusAfter = await baton.cli(['mcp', 'status', '--agent', 'kilo']);
    expect(statusAfter.stdout).toMatch(/kilo: not registered/);
    expect(statusAfter.stdout).toMatch(/plugin: not installed/);
  });
});
