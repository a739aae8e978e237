import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOpenCodeAdapter } from '../../sources/opencode/index.js';
import { makeFixtureHome, sha256Tree, type FixtureHome } from '../../../../testing/fixture-home.js';
import { LATEST_USER_TURN, PLANTED_DECISION, planFromClaudeFixture, readStore } from '../../../../testing/continue-plan.js';
import { fakeBinDir, writerEnv } from '../../../../testing/continue-writer-suite.js';
import { readBack } from '../read-back.js';
import { type openCodeDocument } from './opencode-export.js';
import { openCodeDbPath, openCodeWriter } from './opencode-writer.js';

describe('OpenCode native writer (stage and checks; commit runs the real `opencode import`, see e2e/agents/continue-opencode)', () => {
  let fx: FixtureHome;
  let cwd: string;
  beforeEach(() => {
    fx = makeFixtureHome();
    cwd = path.join(path.dirname(fx.home), 'proj');
    fs.mkdirSync(cwd);
  });
  afterEach(() => fx.cleanup());

  it('stages an export document and a storage tree Baton reads back, leaving the database alone', async () => {
    const env = writerEnv('opencode', fx.env, fx.home);
    const data = path.join(fx.home, '.local', 'share', 'opencode');
    const before = sha256Tree(data);
    const plan = await planFromClaudeFixture(fx.home, 'opencode', cwd);
    const staged = await openCodeWriter.stage(plan, env, path.join(path.dirname(fx.home), 'stg'));
    expect(sha256Tree(data)).toEqual(before);
    expect(staged.nativeId).toMatch(/^ses_[0-9a-f]{12}[0-9A-Za-z]{14}$/);
    const doc = JSON.parse(fs.readFileSync(String(staged.extra?.documentPath), 'utf8')) as ReturnType<typeof openCodeDocument>;
    expect(doc.info.id).toBe(staged.nativeId);
    const ids = doc.messages.map((m) => m.info.id);
    expect([...ids].sort()).toEqual(ids); // ascending, as OpenCode orders messages by id
    for (const m of doc.messages) for (const p of m.parts) expect(p.id).toMatch(/^prt_/);
    expect(await readBack('opencode', staged, plan, staged.nativeId)).toMatchObject({ ok: true });
    const { sessions, messages } = await readStore(createOpenCodeAdapter(staged.readBackRoots));
    const s = sessions.find((x) => x.nativeId === staged.nativeId)!;
    expect(s.cwd).toBe(cwd);
    const texts = (messages.get(s.id) ?? []).map((m) => m.text);
    expect(texts.some((t) => t.includes(PLANTED_DECISION))).toBe(true);
    expect(texts).toContain(LATEST_USER_TURN);
    // Same plan → same document.
    const again = await openCodeWriter.stage(plan, env, path.join(path.dirname(fx.home), 'stg2'));
    expect(fs.readFileSync(String(again.extra?.documentPath), 'utf8')).toBe(fs.readFileSync(String(staged.extra?.documentPath), 'utf8'));
  });

  it('check: not installed, database missing, database locked by a writer, ok', async () => {
    expect(await openCodeWriter.check(writerEnv('opencode', { ...fx.env, PATH: '/nonexistent' }, fx.home))).toMatchObject({ ok: false, reason: 'not_installed' });
    const withBin = { ...fx.env, PATH: fakeBinDir(path.dirname(fx.home), 'opencode', '1.18.33') };
    const env = writerEnv('opencode', withBin, fx.home);
    expect(await openCodeWriter.check(env)).toEqual({ ok: true, version: '1.18.33' });
    const holder = new Database(openCodeDbPath(env));
    holder.exec('BEGIN IMMEDIATE');
    try {
      expect(await openCodeWriter.check(env)).toMatchObject({ ok: false, reason: 'locked' });
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
    fs.rmSync(path.join(fx.home, '.local', 'share', 'opencode', 'opencode.db'));
    expect(await openCodeWriter.check(env)).toMatchObject({ ok: false, reason: 'store_missing' });
  });
});
