/**
 * The real GitHub Copilot CLI (pinned, from npm) against the mock LLM with a real Baton core
 * watching its store: a session it writes is searchable within a second of the prompt reaching
 * disk, and a resume (`--resume=<id>`) appends to the same session. The handoff has no delivery
 * into Copilot yet (agent-delivery.ts: pasted).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBatonCore, type BatonCore } from '../../electron/core/service.js';
import { ensureAgentCli, type AgentCli, requireCli } from '../../testing/agents/agent-clis.js';
import { agentEnv } from '../../testing/agents/agent-home.js';
import { startMockLlm, type MockLlm } from '../../testing/agents/mock-llm.js';
import { runAgent } from '../../testing/agents/run-agent.js';
import { STORE_ENV_KEYS } from '../../testing/fixture-home.js';

function eventFiles(home: string): string[] {
  const dir = path.join(home, '.copilot', 'session-state');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .map((d) => path.join(dir, d, 'events.jsonl'))
    .filter((f) => fs.existsSync(f));
}

describe('real GitHub Copilot CLI with a watching Baton', () => {
  let tmp: string;
  let home: string;
  let project: string;
  let mock: MockLlm;
  let cli: AgentCli;
  let core: BatonCore;
  let copilotEnv: NodeJS.ProcessEnv;

  beforeAll(async () => {
    cli = await ensureAgentCli('copilot');
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'baton-copilot-'));
    home = path.join(tmp, 'home');
    project = path.join(home, 'projects', 'copilot-app');
    fs.mkdirSync(project, { recursive: true });
    mock = await startMockLlm({ dir: tmp });
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: home };
    for (const key of STORE_ENV_KEYS) delete env[key];
    core = await createBatonCore({ environment: { env, platform: process.platform, home }, dataDir: path.join(tmp, 'baton'), ingest: 'inline', log: () => {} });
    await core.start();
    await core.whenCurrent();
    // Copilot is set up after Baton started watching (no ~/.copilot before).
    copilotEnv = agentEnv('copilot', home, mock.url);
  });
  afterAll(async () => {
    await core?.close();
    await mock?.stop();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('makes a session Copilot is writing searchable within a second of its prompt reaching disk; a resume appends to it', async () => {
    requireCli(cli);
    const token = `copilotprobe${Date.now().toString(36)}`;
    fs.writeFileSync(path.join(project, `notes-${token}.txt`), 'remember the milk\n');
    let foundAt = 0;
    let onDiskAt = 0;
    let polling = true;
    const poll = (async () => {
      while (polling && foundAt === 0) {
        if (onDiskAt === 0 && eventFiles(home).some((f) => fs.readFileSync(f, 'utf8').includes(token))) onDiskAt = Date.now();
        const hits = await core.api.search({ query: `agent:copilot ${token}`, limit: 10 });
        if (hits.length > 0) foundAt = Date.now();
        else await new Promise((r) => setTimeout(r, 10));
      }
    })();
    const run = await runAgent({ bin: cli.bin, args: ['-p', `Please read \`notes-${token}.txt\` and tell me what it says.`, '--allow-all-tools'], cwd: project, env: copilotEnv, timeoutMs: 180_000 });
    expect(run.timedOut, `copilot timed out:\n${run.stdout}\n${run.stderr}`).toBe(false);
    expect(run.code, `copilot failed:\n${run.stdout}\n${run.stderr}`).toBe(0);
    const deadline = Date.now() + 10_000;
    while (foundAt === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    polling = false;
    await poll;
    expect(foundAt, 'the prompt never became searchable').toBeGreaterThan(0);
    expect(onDiskAt).toBeGreaterThan(0);
    expect(foundAt - onDiskAt).toBeLessThan(1000);

    const [file] = eventFiles(home);
    const id = path.basename(path.dirname(file!));
    const settled = Date.now() + 5000;
    let session = await core.api.getSession({ session: `copilot:${id}` });
    while (session.toolNames.length === 0 && Date.now() < settled) {
      await new Promise((r) => setTimeout(r, 50));
      session = await core.api.getSession({ session: `copilot:${id}` });
    }
    expect(session).toMatchObject({ agent: 'copilot', cwd: project, userTurns: 1, toolNames: ['view'], model: 'mock-model' });
    expect(session.firstPrompt).toContain(token);
    expect(session.usage.input).toBeGreaterThan(0);

    const resumed = await runAgent({ bin: cli.bin, args: ['-p', 'Thanks! Anything else?', '--allow-all-tools', `--resume=${id}`], cwd: project, env: copilotEnv, timeoutMs: 180_000 });
    expect(resumed.code, `copilot --resume failed:\n${resumed.stdout}\n${resumed.stderr}`).toBe(0);
    await core.syncNow('copilot');
    expect(eventFiles(home)).toHaveLength(1);
    expect(await core.api.getSession({ session: `copilot:${id}` })).toMatchObject({ userTurns: 2, firstPrompt: session.firstPrompt });
  });
});
