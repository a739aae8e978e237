/**
 * Continue's real `cn` (pinned, from npm) against the mock LLM with a real Baton core watching its
 * store: a session it writes is searchable within a second of the document reaching disk, and a
 * `--resume` (cn rewrites the whole document) stays one session with the new turn; Baton registered
 * in cn's own config.yaml (no --config: the file cn loads by default) is called by cn's model and
 * answers from Baton's index. cn has no start-up hook or plugin, so a handoff to it is pasted
 * (agent-delivery.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { promptArgs } from '../../testing/agents/agent-home.js';
import { mcpEndpoint } from '../../electron/core/install/endpoint.js';
import { uninstallMcp } from '../../electron/core/install/mcp-entries/mcp-installer.js';
import { runAgent } from '../../testing/agents/run-agent.js';
import { expectSearchableWithinASecond, searchableWhileRunning, watchAgent } from '../../testing/agents/watching-scene.js';

function documents(home: string): string[] {
  const dir = path.join(home, '.continue', 'sessions');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json') && f !== 'sessions.json')
    .map((f) => path.join(dir, f));
}

describe('real Continue cn with a watching Baton', () => {
  const ready = watchAgent('continue', 'cn-app');

  it('makes a session cn is writing searchable within a second of its document reaching disk; a --resume (a whole rewrite) stays one session with its new turn', async () => {
    const { bin, core, home, project, agentEnv: cnEnv } = ready();
    const token = `cnprobe${Date.now().toString(36)}`;
    const probe = await searchableWhileRunning(core, 'continue', token, () => documents(home).some((f) => fs.readFileSync(f, 'utf8').includes(token)), () => runAgent({ bin, args: promptArgs('continue', `Please run \`echo ${token}\` and tell me what it prints.`, home), cwd: project, env: cnEnv, timeoutMs: 180_000 }));
    expectSearchableWithinASecond('cn', probe);

    const [doc] = documents(home);
    const id = path.basename(doc!, '.json');
    await core.syncNow('continue');
    const session = await core.api.getSession({ session: `continue:${id}` });
    expect(session).toMatchObject({ agent: 'continue', cwd: project, userTurns: 1, model: 'mock-model' });
    expect(session.firstPrompt).toContain(token);
    expect(session.usage.input).toBeGreaterThan(0);

    const resumed = await runAgent({ bin, args: [...promptArgs('continue', 'Thanks! Anything else?', home).slice(0, -2), '--resume', '-p', 'Thanks! Anything else?'], cwd: project, env: cnEnv, timeoutMs: 180_000 });
    expect(resumed.code, `cn --resume failed:\n${resumed.stdout}\n${resumed.stderr}`).toBe(0);
    await core.syncNow('continue');
    expect(documents(home)).toHaveLength(1);
    const after = await core.api.getSession({ session: `continue:${id}` });
    expect(after).toMatchObject({ userTurns: 2, firstPrompt: session.firstPrompt });
    expect(after.messageCount).toBeGreaterThan(session.messageCount);
  });

  it('registers Baton in the config.yaml cn loads by default; a Baton tool called by cn’s model reaches Baton', async () => {
    const { bin, core, home, project, mock, serve, agentEnv: cnEnv } = ready();
    const server = await serve();
    const config = path.join(home, '.continue', 'config.yaml');
    const mine = fs.readFileSync(config, 'utf8');
    const [installed] = await core.api.installMcp({ agent: 'continue', dryRun: false });
    expect(installed).toMatchObject({ ok: true, changed: true, file: config });
    expect(fs.readFileSync(config, 'utf8').startsWith(mine)).toBe(true); // the harness's model stays, byte for byte
    expect(fs.statSync(config).mode & 0o777).toBe(0o600);

    const indexed = (await core.api.listSessions({ agent: 'continue', limit: 50, offset: 0 })).sessions.map((x) => x.id);
    mock.clear();
    // No --config: cn finds ~/.continue/config.yaml itself. It names MCP tools by their bare names.
    const run = await runAgent({ bin, args: ['--auto', '-p', 'call tool `list_sessions` with `{}`'], cwd: project, env: cnEnv, timeoutMs: 180_000 });
    expect(run.timedOut, `cn timed out:\n${run.stdout}\n${run.stderr}`).toBe(false);
    expect(run.code, `cn failed:\n${run.stdout}\n${run.stderr}`).toBe(0);
    const requests = mock.requests().map((r) => r.body as { tools?: { function?: { name?: string } }[]; messages?: { role: string; content: unknown }[] });
    // cn offered Baton's tools to the model…
    expect(requests[0]?.tools?.map((t) => t.function?.name)).toEqual(expect.arrayContaining(['list_sessions', 'generate_brief', 'complete_handoff']));
    // …and Baton's answer, read from its index, went back to the model: it names the cn sessions Baton holds.
    const answers = requests.flatMap((r) => r.messages ?? []).filter((m) => m.role === 'tool').map((m) => JSON.stringify(m.content));
    expect(answers.some((a) => /total\W+: \d/.test(a) && indexed.every((id) => a.includes(id))), JSON.stringify(answers).slice(0, 2000)).toBe(true);

    // cn left its config alone: the uninstall gives back the harness's bytes and mode.
    const mode = 0o644;
    const [removed] = uninstallMcp({ agent: 'continue', endpoint: mcpEndpoint(server.port, core.tokens.get()), environment: core.environment, dataDir: core.dataDir });
    expect(removed).toMatchObject({ ok: true, changed: true });
    expect(fs.readFileSync(config, 'utf8')).toBe(mine);
    expect(fs.statSync(config).mode & 0o777).toBe(mode & ~process.umask());
  });

  it('runs no start-up hook: 1.5.47 loads Claude-style hooks from ~/.continue/settings.json but fires none (why a handoff to cn is pasted)', async () => {
    const { bin, home, project, mock, agentEnv: cnEnv } = ready();
    const marker = path.join(home, 'hook-ran');
    const hook = (event: string) => ({ hooks: [{ type: 'command', command: `echo ${event} >> ${marker}; echo hookcontextprobe` }] });
    const settings = path.join(home, '.continue', 'settings.json');
    fs.writeFileSync(settings, JSON.stringify({ hooks: { SessionStart: [hook('SessionStart')], UserPromptSubmit: [hook('UserPromptSubmit')] } }));
    mock.clear();
    try {
      const run = await runAgent({ bin, args: promptArgs('continue', 'Say hello.', home), cwd: project, env: cnEnv, timeoutMs: 180_000 });
      expect(run.code, `cn failed:\n${run.stdout}\n${run.stderr}`).toBe(0);
      expect(mock.requests().length).toBeGreaterThan(0);
      expect(fs.existsSync(marker), 'cn ran a hook: Baton could deliver handoffs through it (agent-delivery.ts)').toBe(false);
      expect(mock.requests().some((r) => JSON.stringify(r.body).includes('hookcontextprobe'))).toBe(false);
    } finally {
      fs.rmSync(settings);
    }
  });
});
