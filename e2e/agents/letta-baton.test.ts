/**
 * The real Letta Code CLI (pinned, from npm, local backend) against the mock LLM with a real Baton
 * core watching its store: a conversation it writes is searchable within a second of the prompt
 * reaching disk, and `--conversation <id>` appends to the same session; Baton registered in Letta's
 * settings.json (`baton mcp install --agent letta`, one entry per Letta agent) is reached when the
 * model calls a Baton tool the way Letta tells it to: `letta mcp call <tool>` through its Bash tool.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { promptArgs } from '../../testing/agents/agent-home.js';
import { runAgent } from '../../testing/agents/run-agent.js';
import { expectSearchableWithinASecond, notesPrompt, searchableWhileRunning, sessionWithTools, watchAgent } from '../../testing/agents/watching-scene.js';

/** Letta's conversation transcripts: `conversations/<base64url(key)>/messages.jsonl`. */
function messageFiles(home: string): string[] {
  const dir = path.join(home, '.letta', 'lc-local-backend', 'conversations');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .map((d) => path.join(dir, d, 'messages.jsonl'))
    .filter((f) => fs.existsSync(f));
}

describe('real Letta Code with a watching Baton', () => {
  // Letta is set up after Baton started watching (no ~/.letta before).
  const ready = watchAgent('letta', 'letta-app');
  /** The first conversation's probe: only Baton's index can name it in another conversation. */
  const token = `lettaprobe${Date.now().toString(36)}`;

  it('makes a conversation Letta is writing searchable within a second of its prompt reaching disk; --conversation appends to it', async () => {
    const { bin, core, home, project, agentEnv: lettaEnv } = ready();
    const prompt = notesPrompt(project, token);
    const probe = await searchableWhileRunning(core, 'letta', token, () => messageFiles(home).some((f) => fs.readFileSync(f, 'utf8').includes(token)), () => runAgent({ bin, args: promptArgs('letta', prompt), cwd: project, env: lettaEnv, timeoutMs: 180_000 }));
    expectSearchableWithinASecond('letta', probe);
    expect(probe.run.stdout).toContain('remember the milk');

    expect(messageFiles(home)).toHaveLength(1);
    const id = 'local-conv-1';
    // The rest of the run (tool call, answer) arrives through the watcher too.
    const session = await sessionWithTools(core, `letta:${id}`);
    expect(session).toMatchObject({ agent: 'letta', cwd: project, userTurns: 1, toolNames: ['Bash'], model: 'mock-model' });
    // The prompt as typed: Letta's injected <system-reminder> blocks are not part of it.
    expect(session.firstPrompt).toBe(prompt);
    expect(session.usage.input).toBeGreaterThan(0);

    const resumed = await runAgent({ bin, args: ['--conversation', id, ...promptArgs('letta', 'Thanks! Anything else?')], cwd: project, env: lettaEnv, timeoutMs: 180_000 });
    expect(resumed.code, `letta --conversation failed:\n${resumed.stdout}\n${resumed.stderr}`).toBe(0);
    await core.syncNow('letta');
    expect(messageFiles(home)).toHaveLength(1);
    expect(await core.api.getSession({ session: `letta:${id}` })).toMatchObject({ userTurns: 2, firstPrompt: prompt });
  });

  it("registers Baton with every Letta agent in settings.json; a Baton tool the model calls through `letta mcp call` reaches Baton", async () => {
    const { bin, core, home, project, mock, serve, agentEnv: lettaEnv } = ready();
    const server = await serve();
    const [installed] = await core.api.installMcp({ agent: 'letta', dryRun: false });
    expect(installed).toMatchObject({ ok: true, changed: true, file: path.join(home, '.letta', 'settings.json') });
    const settings = JSON.parse(fs.readFileSync(installed!.file, 'utf8')) as { agents: { mcpServers?: { name: string; url: string }[] }[]; preferredBackendMode: string };
    expect(settings.agents.length).toBeGreaterThan(0);
    for (const agent of settings.agents) expect(agent.mcpServers).toEqual([expect.objectContaining({ name: 'baton', transport: 'http', url: `${server.url}/mcp` })]);
    expect(settings.preferredBackendMode).toBe('local'); // Letta's own settings survive

    mock.clear();
    // Letta's own `letta` on the PATH its Bash tool sees, as an installed Letta has it.
    const env = { ...lettaEnv, PATH: [path.dirname(bin), lettaEnv.PATH].join(path.delimiter) };
    const call = `letta mcp call mcp__baton__list_sessions --args '{"agent":"letta"}'`;
    const run = await runAgent({ bin, args: promptArgs('letta', `Please run \`${call}\` and tell me what it says.`), cwd: project, env, timeoutMs: 180_000 });
    expect(run.timedOut, `letta timed out:\n${run.stdout}\n${run.stderr}`).toBe(false);
    expect(run.code, `letta failed:\n${run.stdout}\n${run.stderr}`).toBe(0);
    const requests = mock.requests().filter((r) => r.url.includes('chat/completions')).map((r) => JSON.stringify(r.body));
    // Letta told the model about Baton's server…
    expect(requests[0]).toContain('MCP servers with available tools: baton');
    // …and the tool's answer, read from Baton's index, went back to the model: it names the first
    // conversation and its prompt, which this new conversation never saw.
    const last = requests.at(-1) ?? '';
    expect(last).toContain('local-conv-1');
    expect(last).toContain(token);
    expect(requests[0]).not.toContain(token);
    expect(run.stdout).toContain(token);
  });
});
