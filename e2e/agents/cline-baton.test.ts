/**
 * The real Cline CLI (pinned, from npm) with a real Baton core watching its store: a session it
 * writes is searchable within a second of its prompt reaching disk, and a data dir moved by Cline's
 * own CLINE_DATA_DIR is where Baton looks when the same variable is set. Cline commits checkpoint
 * refs into the repository it runs in: it only ever runs in a temp repository here.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultStoreRoots } from '../../electron/core/paths.js';
import { createAgentAdapter } from '../../electron/core/sources/local-adapters.js';
import { stopClineHub } from '../../testing/agents/homes/cline.js';
import { runAgent } from '../../testing/agents/run-agent.js';
import { expectSearchableWithinASecond, notesPrompt, searchableWhileRunning, sessionWithTools, watchAgent } from '../../testing/agents/watching-scene.js';

/** Every transcript under a Cline data dir (`sessions/<id>/<id>.messages.json`). */
function transcripts(dataDir: string): string[] {
  const dir = path.join(dataDir, 'sessions');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .map((id) => path.join(dir, id, `${id}.messages.json`))
    .filter((f) => fs.existsSync(f));
}

function tempRepo(dir: string): void {
  fs.mkdirSync(dir, { recursive: true });
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=t@example.invalid', '-c', 'user.name=t', ...args], { cwd: dir, stdio: 'ignore' });
  git('init', '-q');
  fs.writeFileSync(path.join(dir, 'README.md'), '# cline app\n');
  git('add', '.');
  git('commit', '-qm', 'init');
}

describe('real Cline CLI with a watching Baton', () => {
  // Cline is set up after Baton started watching (its ~/.cline appears while Baton runs).
  const ready = watchAgent('cline', 'cline-app', { prepare: ({ project }) => tempRepo(project), beforeClose: ({ home }) => stopClineHub(home) });

  it('makes a session Cline is writing searchable within a second of its prompt reaching disk', async () => {
    const { bin, core, home, project, agentEnv: env } = ready();
    const token = `clineprobe${Date.now().toString(36)}`;
    const prompt = notesPrompt(project, token);
    const dataDir = path.join(home, '.cline', 'data');
    const probe = await searchableWhileRunning(core, 'cline', token, () => transcripts(dataDir).some((f) => fs.readFileSync(f, 'utf8').includes(token)), () => runAgent({ bin, args: [prompt], cwd: project, env, timeoutMs: 180_000 }));
    expectSearchableWithinASecond('cline', probe);

    const [file] = transcripts(dataDir);
    const id = path.basename(path.dirname(file!));
    // The rest of the run (tool call, answer) arrives through the watcher too.
    const session = await sessionWithTools(core, `cline:${id}`);
    expect(session).toMatchObject({ agent: 'cline', cwd: project, userTurns: 1, toolNames: ['read_files'], model: 'mock-model' });
    expect(session.firstPrompt).toContain(token);
    expect(session.usage.input).toBeGreaterThan(0);
  });

  it('writes where CLINE_DATA_DIR says, and Baton reads there when the variable is set', async () => {
    const { bin, home, project, tmp, agentEnv: env } = ready();
    const moved = path.join(tmp, 'cline-data-elsewhere');
    fs.mkdirSync(path.join(moved, 'settings'), { recursive: true });
    fs.copyFileSync(path.join(home, '.cline', 'data', 'settings', 'providers.json'), path.join(moved, 'settings', 'providers.json'));
    const before = transcripts(path.join(home, '.cline', 'data')).length;
    const run = await runAgent({ bin, args: ['Say movedprobe, please.'], cwd: project, env: { ...env, CLINE_DATA_DIR: moved }, timeoutMs: 180_000 });
    expect(run.code, `cline failed:\n${run.stdout}\n${run.stderr}`).toBe(0);
    expect(transcripts(moved)).toHaveLength(1);
    expect(transcripts(path.join(home, '.cline', 'data'))).toHaveLength(before);

    const roots = defaultStoreRoots('cline', { env: { CLINE_DATA_DIR: moved }, platform: 'linux', home });
    expect(roots).toEqual([moved]);
    const adapter = createAgentAdapter('cline', roots);
    const [unit] = await adapter.listUnits();
    const sessions = [];
    for await (const batch of adapter.read(unit!, { cursor: null, diagnostic: () => {} })) sessions.push(...batch.sessions);
    expect(sessions.map((s) => s.firstPrompt)).toEqual(['Say movedprobe, please.']);
  });

  it('registers Baton in cline_mcp_settings.json; a Baton tool called by the model reaches Baton', async () => {
    const { bin, core, home, project, mock, serve, agentEnv: env } = ready();
    const server = await serve();
    const [installed] = await core.api.installMcp({ agent: 'cline', dryRun: false });
    expect(installed).toMatchObject({ ok: true, changed: true, file: path.join(home, '.cline', 'data', 'settings', 'cline_mcp_settings.json') });
    const settings = JSON.parse(fs.readFileSync(installed!.file, 'utf8')) as { mcpServers: Record<string, unknown> };
    expect(settings.mcpServers.baton).toMatchObject({ type: 'streamableHttp', url: `${server.url}/mcp` });

    mock.clear();
    const run = await runAgent({ bin, args: ['call tool `list_sessions` with `{"agent":"cline"}`'], cwd: project, env, timeoutMs: 180_000 });
    expect(run.timedOut, `cline timed out:\n${run.stdout}\n${run.stderr}`).toBe(false);
    expect(run.code, `cline failed:\n${run.stdout}\n${run.stderr}`).toBe(0);
    const requests = mock.requests().map((r) => JSON.stringify(r.body));
    // Cline offered Baton's tools to the model (as `baton__<tool>`)…
    expect(requests[0]).toContain('baton__list_sessions');
    // …and the tool's answer, read from Baton's index, went back to the model: it names the first session.
    const first = transcripts(path.join(home, '.cline', 'data')).find((f) => fs.readFileSync(f, 'utf8').includes('clineprobe'))!;
    expect(requests.at(-1)).toContain('"role":"tool"');
    expect(requests.at(-1)).toContain(path.basename(path.dirname(first)));
  });
});
