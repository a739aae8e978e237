import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOpenCodeAdapter } from '../../sources/opencode/index.js';
import { makeFixtureHome, sha256Tree, type FixtureHome } from '../../../../testing/fixture-home.js';
import { LATEST_USER_TURN, PLANTED_DECISION, planFromClaudeFixture, readStore } from '../../../../testing/continue-plan.js';
import { fakeBinDir, writerEnv } from '../../../../testing/continue-writer-suite.js';
import { readBack } from '../read-back.js';
import type { openCodeDocument } from './opencode-export.js';
import { kiloDbPath, kiloWriter } from './kilo-writer.js';

describe('Kilo Code native writer (stage and checks; commit runs the real `kilo import`, see e2e/agents/continue-kilo)', () => {
  let fx: FixtureHome;
  let cwd: string;
  beforeEach(() => {
    fx = makeFixtureHome();
    cwd = path.join(path.dirname(fx.home), 'proj');
    fs.mkdirSync(cwd);
  });
  afterEach(() => fx.cleanup());

  it("stages a document naming Kilo's agent and model, and a storage tree Baton's Kilo reader reads back; kilo.db is left alone", async () => {
    const config = path.join(fx.home, '.config', 'kilo');
    fs.mkdirSync(config, { recursive: true });
    // Kilo merges its config files, the later winning: kilo.json over config.json.
    fs.writeFileSync(path.join(config, 'config.json'), '{ "model": "old/loser" }\n');
    fs.writeFileSync(path.join(config, 'kilo.json'), '{ "model": "mock/mock-model" }\n');
    const env = writerEnv('kilo', fx.env, fx.home);
    const data = path.join(fx.home, '.local', 'share', 'kilo');
    const before = sha256Tree(data);
    const plan = await planFromClaudeFixture(fx.home, 'kilo', cwd);
    const staged = await kiloWriter.stage(plan, env, path.join(path.dirname(fx.home), 'stg'));
    expect(sha256Tree(data)).toEqual(before);
    expect(staged.nativeId).toMatch(/^ses_[0-9a-f]{12}[0-9A-Za-z]{14}$/);
    const doc = JSON.parse(fs.readFileSync(String(staged.extra?.documentPath), 'utf8')) as ReturnType<typeof openCodeDocument>;
    expect(doc.info).toMatchObject({ id: staged.nativeId, directory: cwd, version: '7.7.7' });
    for (const m of doc.messages) expect(m.info).toMatchObject({ agent: 'code' });
    expect(doc.messages[0]!.info).toMatchObject({ role: 'user', model: { providerID: 'mock', modelID: 'mock-model' } });
    expect(await readBack('kilo', staged, plan, staged.nativeId)).toMatchObject({ ok: true });
    const { sessions, messages } = await readStore(createOpenCodeAdapter(staged.readBackRoots, {}, 'kilo'));
    const s = sessions.find((x) => x.nativeId === staged.nativeId)!;
    expect(s).toMatchObject({ id: `kilo:${staged.nativeId}`, cwd });
    const texts = (messages.get(s.id) ?? []).map((m) => m.text);
    expect(texts.some((t) => t.includes(PLANTED_DECISION))).toBe(true);
    expect(texts).toContain(LATEST_USER_TURN);
    // Same plan → same document; another target's writer derives other ids.
    const again = await kiloWriter.stage(plan, env, path.join(path.dirname(fx.home), 'stg2'));
    expect(fs.readFileSync(String(again.extra?.documentPath), 'utf8')).toBe(fs.readFileSync(String(staged.extra?.documentPath), 'utf8'));
  });

  it('check: not installed, database missing, database locked by a writer, ok', async () => {
    expect(await kiloWriter.check(writerEnv('kilo', { ...fx.env, PATH: '/nonexistent' }, fx.home))).toMatchObject({ ok: false, reason: 'not_installed' });
    const withBin = { ...fx.env, PATH: fakeBinDir(path.dirname(fx.home), 'kilo', '7.7.7') };
    const env = writerEnv('kilo', withBin, fx.home);
    expect(await kiloWriter.check(env)).toEqual({ ok: true, version: '7.7.7' });
    const holder = new Database(kiloDbPath(env));
    holder.exec('BEGIN IMMEDIATE');
    try {
      expect(await kiloWriter.check(env)).toMatchObject({ ok: false, reason: 'locked' });
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
    fs.rmSync(kiloDbPath(env));
    expect(await kiloWriter.check(env)).toMatchObject({ ok: false, reason: 'store_missing', message: expect.stringContaining('kilo.db') });
  });
});
