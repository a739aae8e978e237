/**
 * The real Factory Droid (pinned, from npm) against the mock LLM with a real Baton core watching its
 * store: a session `droid exec` writes is searchable within a second of the prompt reaching disk, a
 * resume (`exec -s <id>`) appends to it, and Baton registered in ~/.factory/mcp.json (`baton mcp
 * install --agent droid`) is reached when the model calls a Baton tool.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { promptArgs } from '../../testing/agents/agent-home.js';
import { DROID_MODEL } from '../../testing/agents/homes/droid.js';
import type { MockLlm } from '../../testing/agents/mock-llm.js';
import { runAgent } from '../../testing/agents/run-agent.js';
import { expectSearchableWithinASecond, notesPrompt, searchableWhileRunning, sessionWithTools, watchAgent } from '../../testing/agents/watching-scene.js';

/** Droid's transcripts: ~/.factory/sessions/<cwd with "/" → "-">/<uuid>.jsonl. */
function transcripts(home: string): string[] {
  const dir = path.join(home, '.factory', 'sessions');
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true }) as string[]).filter((f) => f.endsWith('.jsonl')).map((f) => path.join(dir, f));
}

interface ChatBody {
  tools?: { function: { name: string } }[];
  messages: { role: string; content: unknown; tool_calls?: { function: { name: string } }[] }[];
}

/** The model's requests (the mock also answers Droid's calls to Factory's API and telemetry, with 404s). */
function modelRequests(mock: MockLlm): ChatBody[] {
  return mock
    .requests()
    .filter((r) => r.url.includes('/chat/completions'))
    .map((r) => r.body as ChatBody);
}

describe('real Factory Droid with a watching Baton', () => {
  // Droid is set up after Baton started watching (no ~/.factory before).
  const ready = watchAgent('droid', 'droid-app');
  let firstId = '';

  it('makes a session Droid is writing searchable within a second of its prompt reaching disk; a resume appends to it', async () => {
    const { bin, core, home, project, agentEnv: droidEnv } = ready();
    const token = `droidprobe${Date.now().toString(36)}`;
    const prompt = notesPrompt(project, token);
    const probe = await searchableWhileRunning(core, 'droid', token, () => transcripts(home).some((f) => fs.readFileSync(f, 'utf8').includes(token)), () => runAgent({ bin, args: promptArgs('droid', prompt), cwd: project, env: droidEnv, timeoutMs: 180_000 }));
    expectSearchableWithinASecond('droid', probe);

    const [file] = transcripts(home);
    firstId = path.basename(file!, '.jsonl');
    // The rest of the run (tool call, answer) arrives through the watcher too.
    const session = await sessionWithTools(core, `droid:${firstId}`);
    expect(session).toMatchObject({ agent: 'droid', cwd: project, userTurns: 1, firstPrompt: prompt, toolNames: ['Read'] });

    const resumed = await runAgent({ bin, args: ['exec', '-m', DROID_MODEL, '--auto', 'low', '-s', firstId, 'Thanks! Anything else?'], cwd: project, env: droidEnv, timeoutMs: 180_000 });
    expect(resumed.code, `droid exec -s failed:\n${resumed.stdout}\n${resumed.stderr}`).toBe(0);
    await core.syncNow('droid');
    expect(transcripts(home)).toHaveLength(1);
    expect(await core.api.getSession({ session: `droid:${firstId}` })).toMatchObject({ userTurns: 2, firstPrompt: prompt });
  });

  it('registers Baton in ~/.factory/mcp.json; a Baton tool called by the model reaches Baton', async () => {
    const { bin, core, home, project, mock, serve, agentEnv: droidEnv } = ready();
    const server = await serve();
    const [installed] = await core.api.installMcp({ agent: 'droid', dryRun: false });
    expect(installed).toMatchObject({ ok: true, changed: true, file: path.join(home, '.factory', 'mcp.json') });
    const config = JSON.parse(fs.readFileSync(installed!.file, 'utf8')) as { mcpServers: Record<string, unknown> };
    expect(config.mcpServers.baton).toMatchObject({ type: 'http', url: `${server.url}/mcp` });

    // Droid 0.225 always defers MCP tools: it names them in a reminder and offers a tool's schema
    // once the model loads it with ToolSearch, for the rest of that process. The scripted mock makes
    // one tool call per prompt, so one `droid exec` gets two prompts (stream-json input): load, call.
    mock.clear();
    const turns = ['call tool `ToolSearch` with `{"query":"select:baton___list_sessions"}`', 'call tool `list_sessions` with `{"agent":"droid"}`'];
    const run = await runAgent({
      bin,
      args: ['exec', '-m', DROID_MODEL, '--auto', 'low', '--input-format', 'stream-json', '--output-format', 'stream-json'],
      stdin: turns.map((content) => JSON.stringify({ role: 'user', content })).join('\n') + '\n',
      cwd: project,
      env: droidEnv,
      timeoutMs: 180_000,
    });
    expect(run.timedOut, `droid timed out:\n${run.stdout}\n${run.stderr}`).toBe(false);
    expect(run.code, `droid failed:\n${run.stdout}\n${run.stderr}`).toBe(0);
    const bodies = modelRequests(mock);
    // Droid listed Baton's tools to the model, ToolSearch loaded one…
    expect(JSON.stringify(bodies[0]?.messages)).toContain('baton___list_sessions');
    expect(bodies.at(-1)?.tools?.map((t) => t.function.name)).toContain('baton___list_sessions');
    // …the model called it…
    const last = bodies.at(-1)!.messages;
    expect(last.flatMap((m) => m.tool_calls ?? []).map((c) => c.function.name)).toContain('baton___list_sessions');
    // …and the tool's answer, read from Baton's index, went back to the model: it names the session above.
    const answer = last.filter((m) => m.role === 'tool').at(-1);
    expect(JSON.stringify(answer?.content)).toContain(firstId);
  });
});
