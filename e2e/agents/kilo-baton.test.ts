/**
 * The real Kilo Code CLI (pinned, from npm) with a real Baton core watching its store: a session it
 * writes into kilo.db is searchable within a second of its prompt reaching the database, a resume
 * (`--continue`) adds to the same session, and a subagent (`task`) is a child session.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBatonCore, type BatonCore } from '../../electron/core/service.js';
import { startLocalServer, type LocalServer } from '../../electron/core/local-server.js';
import { ensureAgentCli, type AgentCli, requireCli } from '../../testing/agents/agent-clis.js';
import { agentEnv } from '../../testing/agents/agent-home.js';
import { freePort, startMockLlm, type MockLlm } from '../../testing/agents/mock-llm.js';
import { runAgent } from '../../testing/agents/run-agent.js';

/** Environment variables of the machine running the tests that would point Baton elsewhere. */
const AGENT_VARS = ['CLAUDE_CONFIG_DIR', 'CODEX_HOME', 'XDG_DATA_HOME', 'XDG_CONFIG_HOME', 'OPENCODE_DB', 'HERMES_HOME', 'QWEN_HOME', 'QWEN_RUNTIME_DIR', 'PI_CODING_AGENT_DIR', 'PI_CODING_AGENT_SESSION_DIR'];

/** The session whose parts hold `token`, read the way Kilo's own readers do (a read-only connection, closed at once). */
function sessionHolding(dbFile: string, token: string): string | null {
  if (!fs.existsSync(dbFile)) return null;
  let db: Database.Database | null = null;
  try {
    db = new Database(dbFile, { readonly: true, fileMustExist: true });
    const row = db.prepare('SELECT session_id AS sid FROM part WHERE data LIKE ? LIMIT 1').get(`%${token}%`) as { sid: string } | undefined;
    return row?.sid ?? null;
  } catch {
    return null; // mid-migration on the first run
  } finally {
    db?.close();
  }
}

describe('real Kilo Code with a watching Baton', () => {
  let tmp: string;
  let home: string;
  let project: string;
  let dbFile: string;
  let mock: MockLlm;
  let cli: AgentCli;
  let core: BatonCore;
  let kiloEnv: NodeJS.ProcessEnv;
  let server: LocalServer | null = null;

  beforeAll(async () => {
    cli = await ensureAgentCli('kilo');
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'baton-kilo-'));
    home = path.join(tmp, 'home');
    project = path.join(home, 'projects', 'kilo-app');
    dbFile = path.join(home, '.local', 'share', 'kilo', 'kilo.db');
    fs.mkdirSync(project, { recursive: true });
    mock = await startMockLlm({ dir: tmp });
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: home };
    for (const key of AGENT_VARS) delete env[key];
    core = await createBatonCore({ environment: { env, platform: process.platform, home }, dataDir: path.join(tmp, 'baton'), ingest: 'inline', log: () => {} });
    await core.start();
    await core.whenCurrent();
    // Kilo is set up after Baton started watching (no ~/.local/share/kilo before).
    kiloEnv = agentEnv('kilo', home, mock.url);
  });
  afterAll(async () => {
    await server?.close();
    await core?.close();
    await mock?.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('makes a session Kilo is writing searchable within a second of its prompt reaching kilo.db', async () => {
    requireCli(cli);
    const token = `kiloprobe${Date.now().toString(36)}`;
    fs.writeFileSync(path.join(project, `notes-${token}.txt`), 'remember the milk\n');
    let foundAt = 0;
    let onDiskAt = 0;
    let polling = true;
    const poll = (async () => {
      while (polling && foundAt === 0) {
        if (onDiskAt === 0 && sessionHolding(dbFile, token)) onDiskAt = Date.now();
        const hits = await core.api.search({ query: `agent:kilo ${token}`, limit: 10 });
        if (hits.length > 0) foundAt = Date.now();
        else await new Promise((r) => setTimeout(r, 10));
      }
    })();
    const run = await runAgent({ bin: cli.bin, args: ['run', `Please read \`notes-${token}.txt\` and tell me what it says.`], cwd: project, env: kiloEnv, timeoutMs: 240_000 });
    expect(run.timedOut, `kilo timed out:\n${run.stdout}\n${run.stderr}`).toBe(false);
    expect(run.code, `kilo failed:\n${run.stdout}\n${run.stderr}`).toBe(0);
    const deadline = Date.now() + 10_000;
    while (foundAt === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    polling = false;
    await poll;

    const sid = sessionHolding(dbFile, token);
    expect(sid, 'Kilo wrote no session').toBeTruthy();
    expect(foundAt, 'the prompt never became searchable').toBeGreaterThan(0);
    expect(onDiskAt).toBeGreaterThan(0);
    expect(foundAt - onDiskAt).toBeLessThan(1000);

    // A resume appends to the same session row: one more turn, same session.
    const again = await runAgent({ bin: cli.bin, args: ['run', '--continue', 'Thanks! Anything else?'], cwd: project, env: kiloEnv, timeoutMs: 240_000 });
    expect(again.code, `kilo --continue failed:\n${again.stdout}\n${again.stderr}`).toBe(0);
    await core.syncNow('kilo');
    const session = await core.api.getSession({ session: `kilo:${sid}` });
    expect(session).toMatchObject({ agent: 'kilo', cwd: project, userTurns: 2, toolNames: ['read'] });
    expect(session.firstPrompt).toContain(token);
    expect(session.usage.input).toBeGreaterThan(0);
  });

  it('shows a subagent Kilo ran (the task tool) as a child session of the one that launched it', async () => {
    requireCli(cli);
    const run = await runAgent({ bin: cli.bin, args: ['run', 'Please use a subagent to run `ls -1` and report what it shows.'], cwd: project, env: kiloEnv, timeoutMs: 240_000 });
    expect(run.code, `kilo failed:\n${run.stdout}\n${run.stderr}`).toBe(0);
    await core.syncNow('kilo');
    const page = await core.api.listSessions({ agent: 'kilo', limit: 100, offset: 0 });
    const child = page.sessions.find((s) => s.parentId !== null);
    expect(child, 'no Kilo child session').toBeDefined();
    expect(child!.toolNames).toContain('bash');
    const parent = await core.api.getSession({ session: child!.parentId! });
    expect(parent).toMatchObject({ agent: 'kilo', parentId: null });
    expect(parent.toolNames).toContain('task');
  });

  it('registers Baton in kilo.json beside the user’s config; a Baton tool called by the model reaches Baton', async () => {
    requireCli(cli);
    await core.api.updateSettings({ port: await freePort() });
    server = await startLocalServer(core);
    const [installed] = await core.api.installMcp({ agent: 'kilo', dryRun: false });
    expect(installed).toMatchObject({ ok: true, changed: true, file: path.join(home, '.config', 'kilo', 'kilo.json') });
    const config = JSON.parse(fs.readFileSync(installed!.file, 'utf8')) as { mcp: Record<string, { url: string }>; provider: unknown };
    expect(config.mcp.baton).toMatchObject({ type: 'remote', url: `${server.url}/mcp`, enabled: true });
    expect(config.provider).toBeDefined(); // the harness's own provider survives

    mock.clear();
    // `kilo run` sends a prompt with spaces wrapped in quotes, escaping the quotes inside: no JSON strings in it.
    const run = await runAgent({ bin: cli.bin, args: ['run', 'call tool `list_sessions` with `{}`'], cwd: project, env: kiloEnv, timeoutMs: 240_000 });
    expect(run.timedOut, `kilo timed out:\n${run.stdout}\n${run.stderr}`).toBe(false);
    expect(run.code, `kilo failed:\n${run.stdout}\n${run.stderr}`).toBe(0);
    const requests = mock.requests().map((r) => JSON.stringify(r.body));
    // Kilo offered Baton's tools to the model…
    expect(requests.some((b) => b.includes('baton_list_sessions'))).toBe(true);
    // …and the tool's answer, read from Baton's index, went back to the model: it names a Kilo session.
    expect(requests.some((b) => b.includes('"role":"tool"') && /kilo:ses_/.test(b))).toBe(true);
  });
});
