// Continue natively on the real fixture stores and index, a real baton.db and the real writers:
// bad input is refused with a clear error and writes nothing; a staged session Baton cannot read
// back is refused; a target newer than the tested version is named; a repeat gives the same
// session; undo removes exactly what was written.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BatonCore } from '../service.js';
import { parseApiInput } from '../../../shared/contract.js';
import { makeFixtureHome, type FixtureHome } from '../../../testing/fixture-home.js';
import { startFixtureCore } from '../../../testing/fixture-core.js';
import { AGENT_CLIS, agentCacheDir } from '../../../testing/agents/agent-clis.js';
import { continueSession, undoContinuation } from './continue-session.js';
import { claudeWriter } from './targets/claude-writer.js';
import type { NativeWriter } from './native-writer.js';

const CLAUDE_SOURCE = 'claude:1acd9001-6177-4eae-b40d-71af70d0b76c';

/** Every file under a directory with its bytes: "nothing written" is this snapshot unchanged. */
function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const e of fs.existsSync(d) ? fs.readdirSync(d, { withFileTypes: true }) : []) {
      const full = path.join(d, e.name);
      if (e.isDirectory()) walk(full);
      else if (!/-(wal|shm)$/.test(e.name)) out.set(full, fs.readFileSync(full).toString('base64'));
    }
  };
  walk(dir);
  return out;
}

describe('continueSession', () => {
  let fixture: FixtureHome;
  let core: BatonCore;
  let project: string;
  let bin: string;
  let codexHome: string;
  let claudeHome: string;

  beforeAll(async () => {
    fixture = makeFixtureHome();
    project = path.join(fixture.home, 'work', 'demo-app');
    fs.mkdirSync(project, { recursive: true });
    // The real CLIs on PATH (the writers ask them their version), as installed for the agent tests.
    bin = path.join(fixture.home, 'bin');
    fs.mkdirSync(bin);
    for (const name of ['claude', 'codex'] as const) {
      const cli = path.join(agentCacheDir(), `${name}@${AGENT_CLIS[name].version}`, 'node_modules', '.bin', name);
      fs.symlinkSync(cli, path.join(bin, name));
    }
    fixture.env.PATH = [path.dirname(process.execPath), bin, process.env.PATH].join(path.delimiter);
    core = await startFixtureCore(fixture);
    codexHome = path.join(fixture.home, '.codex');
    claudeHome = path.join(fixture.home, '.claude');
  }, 120_000);
  afterAll(async () => {
    await core.close();
    fixture.cleanup();
  });

  const refused = async (request: Parameters<typeof continueSession>[1], message: RegExp, options?: Parameters<typeof continueSession>[2]) => {
    const before = [snapshot(codexHome), snapshot(claudeHome)];
    await expect(continueSession(core, request, options)).rejects.toThrow(message);
    expect([snapshot(codexHome), snapshot(claudeHome)]).toEqual(before);
    expect(core.userData.continuations.list()).toEqual([]);
  };

  it('refuses bad input with a clear error and writes nothing', async () => {
    await refused({ session: 'no-such-session-words-xyz', target: 'codex', cwd: project }, /No session|no session/i);
    await refused({ session: CLAUDE_SOURCE, target: 'codex', cwd: path.join(project, 'missing') }, /does not exist/);
    // The fixture session's own folder is not on this machine.
    await refused({ session: CLAUDE_SOURCE, target: 'codex' }, /does not exist/);
    const savedPath = fixture.env.PATH;
    fixture.env.PATH = path.dirname(process.execPath);
    try {
      await refused({ session: CLAUDE_SOURCE, target: 'codex', cwd: project }, /Codex CLI is not installed/);
    } finally {
      fixture.env.PATH = savedPath;
    }
    await refused({ session: CLAUDE_SOURCE, target: 'opencode', cwd: project }, /not available yet|OpenCode/, { writerFor: () => null });
  });

  it('refuses a store that is missing, and one a running agent holds locked', async () => {
    const missing = { ...core, storeRoots: () => [path.join(fixture.home, 'nowhere', '.codex')] };
    await expect(continueSession(missing, { session: CLAUDE_SOURCE, target: 'codex', cwd: project })).rejects.toThrow(/store is missing/);
    const db = new Database(path.join(codexHome, 'state_5.sqlite'));
    db.exec('BEGIN IMMEDIATE');
    try {
      await refused({ session: CLAUDE_SOURCE, target: 'codex', cwd: project }, /locked by a running Codex/);
    } finally {
      db.exec('ROLLBACK');
      db.close();
    }
  }, 60_000);

  it('refuses what Baton cannot read back, naming why, and writes nothing', async () => {
    const unreadable: NativeWriter = {
      ...claudeWriter,
      async stage(plan, env, staging) {
        const staged = await claudeWriter.stage(plan, env, staging);
        // The assistant envelope dropped: Baton's Claude reader no longer finds those turns.
        const file = staged.files[0]!.stagedPath;
        fs.writeFileSync(file, fs.readFileSync(file, 'utf8').split('\n').filter((l) => !l.includes('"type":"assistant"')).join('\n'));
        return staged;
      },
    };
    await refused({ session: CLAUDE_SOURCE, target: 'claude', cwd: project }, /Nothing was written: Baton's claude reader reads the session back without the assistant turn/, { writerFor: () => unreadable });
  }, 60_000);

  it('writes once, names a newer target version, gives the same session again, and undoes exactly what it wrote', async () => {
    const older: NativeWriter = { ...claudeWriter, testedVersion: '2.0.0' };
    const before = snapshot(claudeHome);
    const result = await continueSession(core, { session: CLAUDE_SOURCE, target: 'claude', cwd: project }, { writerFor: () => older });
    expect(result.source).toBe(CLAUDE_SOURCE);
    expect(result.warnings.join(' ')).toMatch(/Claude Code 2\.1\.330 is newer than 2\.0\.0/);
    expect(result.resume).toEqual(['claude', '--resume', result.session]);
    expect(result.tokens).toBeLessThanOrEqual(result.contextWindow / 2);
    const again = await continueSession(core, { session: result.source, target: 'claude', cwd: project });
    expect(again).toMatchObject({ session: result.session, reused: true });
    expect(core.userData.continuations.byTarget(result.sessionId)?.sourceSession).toBe(result.source);
    // baton list links the two both ways.
    await core.syncNow('claude');
    const page = await core.api.listSessions(parseApiInput('listSessions', { agent: 'claude', limit: 200 }));
    expect(page.sessions.find((s) => s.id === result.sessionId)?.continuedFrom).toBe(CLAUDE_SOURCE);
    expect(page.sessions.find((s) => s.id === CLAUDE_SOURCE)?.continuedIn).toEqual([result.sessionId]);
    const undone = undoContinuation(core, result.session.slice(0, 8));
    expect(undone.sessionId).toBe(result.sessionId);
    expect(snapshot(claudeHome)).toEqual(before);
    expect(() => undoContinuation(core, result.session)).toThrow(/No session Baton continued/);
  }, 60_000);
});
