/**
 * The real Kilo Code CLI (pinned, from npm) with a real Baton core watching its store: a session it
 * writes into kilo.db is searchable within a second of its prompt reaching the database, a resume
 * (`--continue`) adds to the same session, and a subagent (`task`) is a child session.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { runAgent } from '../../testing/agents/run-agent.js';
import { expectSearchableWithinASecond, notesPrompt, searchableWhileRunning, watchAgent } from '../../testing/agents/watching-scene.js';

/** Kilo keeps one database: ~/.local/share/kilo/kilo.db. */
function kiloDb(home: string): string {
  return path.join(home, '.local', 'share', 'kilo', 'kilo.db');
}

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
  // Kilo is set up after Baton started watching (no ~/.local/share/kilo before).
  const ready = watchAgent('kilo', 'kilo-app');

  it('makes a session Kilo is writing searchable within a second of its prompt reaching kilo.db', async () => {
    const { bin, core, home, project, agentEnv: kiloEnv } = ready();
    const token = `kiloprobe${Date.now().toString(36)}`;
    const prompt = notesPrompt(project, token);
    const probe = await searchableWhileRunning(core, 'kilo', token, () => sessionHolding(kiloDb(home), token) !== null, () => runAgent({ bin, args: ['run', prompt], cwd: project, env: kiloEnv, timeoutMs: 240_000 }));
    expectSearchableWithinASecond('kilo', probe);
    const sid = sessionHolding(kiloDb(home), token);
    expect(sid, 'Kilo wrote no session').toBeTruthy();

    // A resume appends to the same session row: one more turn, same session.
    const again = await runAgent({ bin, args: ['run', '--continue', 'Thanks! Anything else?'], cwd: project, env: kiloEnv, timeoutMs: 240_000 });
    expect(again.code, `kilo --continue failed:\n${again.stdout}\n${again.stderr}`).toBe(0);
    await core.syncNow('kilo');
    const session = await core.api.getSession({ session: `kilo:${sid}` });
    expect(session).toMatchObject({ agent: 'kilo', cwd: project, userTurns: 2, toolNames: ['read'] });
    expect(session.firstPrompt).toContain(token);
    expect(session.usage.input).toBeGreaterThan(0);
  });

  it('shows a subagent Kilo ran (the task tool) as a child session of the one that launched it', async () => {
    const { bin, core, project, agentEnv: kiloEnv } = ready();
    const run = await runAgent({ bin, args: ['run', 'Please use a subagent to run `ls -1` and report what it shows.'], cwd: project, env: kiloEnv, timeoutMs: 240_000 });
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
    const { bin, core, home, project, mock, serve, agentEnv: kiloEnv } = ready();
    const server = await serve();
    const [installed] = await core.api.installMcp({ agent: 'kilo', dryRun: false });
    expect(installed).toMatchObject({ ok: true, changed: true, file: path.join(home, '.config', 'kilo', 'kilo.json') });
    const config = JSON.parse(fs.readFileSync(installed!.file, 'utf8')) as { mcp: Record<string, { url: string }>; provider: unknown };
    expect(config.mcp.baton).toMatchObject({ type: 'remote', url: `${server.url}/mcp`, enabled: true });
    expect(config.provider).toBeDefined(); // the harness's own provider survives

    mock.clear();
    // `kilo run` sends a prompt with spaces wrapped in quotes, escaping the quotes inside: no JSON strings in it.
    const run = await runAgent({ bin, args: ['run', 'call tool `list_sessions` with `{}`'], cwd: project, env: kiloEnv, timeoutMs: 240_000 });
    expect(run.timedOut, `kilo timed out:\n${run.stdout}\n${run.stderr}`).toBe(false);
    expect(run.code, `kilo failed:\n${run.stdout}\n${run.stderr}`).toBe(0);
    const requests = mock.requests().map((r) => JSON.stringify(r.body));
    // Kilo offered Baton's tools to the model…
    expect(requests.some((b) => b.includes('baton_list_sessions'))).toBe(true);
    // …and the tool's answer, read from Baton's index, went back to the model: it names a Kilo session.
    expect(requests.some((b) => b.includes('"role":"tool"') && /kilo:ses_/.test(b))).toBe(true);
  });
});
