import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createClineAdapter } from '../../sources/cline/cline-adapter.js';
import { makeFixtureHome, sha256Tree, type FixtureHome } from '../../../../testing/fixture-home.js';
import { LATEST_USER_TURN, PLANTED_DECISION, planFromClaudeFixture, readStore } from '../../../../testing/continue-plan.js';
import { fakeBinDir, writerEnv } from '../../../../testing/continue-writer-suite.js';
import { readBack } from '../read-back.js';
import { runUndo } from '../undo-steps.js';
import { clineWriter } from './cline-writer.js';

describe('Cline native writer', () => {
  let fx: FixtureHome;
  let cwd: string;
  let staging: string;
  beforeEach(() => {
    fx = makeFixtureHome();
    cwd = path.join(path.dirname(fx.home), 'work', 'demo-app');
    fs.mkdirSync(cwd, { recursive: true });
    staging = path.join(path.dirname(fx.home), 'staging');
  });
  afterEach(() => fx.cleanup());
  const sessions = () => path.join(fx.home, '.cline', 'data', 'sessions');

  it('stages a session folder (transcript + manifest) without touching the store; Baton reads it back with its turns', async () => {
    const plan = await planFromClaudeFixture(fx.home, 'cline', cwd);
    const env = writerEnv('cline', fx.env, fx.home);
    const before = sha256Tree(sessions());
    const staged = await clineWriter.stage(plan, env, staging);
    expect(sha256Tree(sessions())).toEqual(before);
    expect(staged.nativeId).toMatch(/^\d{13}_[0-9a-z]{5}$/);
    expect(staged.files.map((f) => path.relative(sessions(), f.finalPath))).toEqual([path.join(staged.nativeId, `${staged.nativeId}.messages.json`), path.join(staged.nativeId, `${staged.nativeId}.json`)]);
    const manifest = JSON.parse(fs.readFileSync(staged.files[1]!.stagedPath, 'utf8')) as Record<string, unknown>;
    expect(manifest).toMatchObject({ session_id: staged.nativeId, cwd, workspace_root: cwd, messages_path: staged.files[0]!.finalPath, metadata: { title: plan.title } });

    const { sessions: read, messages } = await readStore(createClineAdapter(staged.readBackRoots));
    expect(read.map((s) => s.nativeId)).toEqual([staged.nativeId]);
    expect(read[0]).toMatchObject({ cwd, title: expect.stringContaining('Continued from Claude Code') });
    const texts = (messages.get(read[0]!.id) ?? []).map((m) => `${m.role}:${m.text}`);
    expect(texts[0]).toMatch(/^user:Continued from Claude Code/);
    expect(texts[0]).toContain(PLANTED_DECISION);
    expect(texts).toContain(`user:${LATEST_USER_TURN}`);
    expect(texts.length).toBe(plan.turns.length + 2);
    expect(await readBack('cline', staged, plan, staged.nativeId)).toMatchObject({ ok: true });
  });

  it('commits the two files the reader finds in the real store; the same plan is the same session; other content is refused; undo gives the store back', async () => {
    const plan = await planFromClaudeFixture(fx.home, 'cline', cwd);
    const env = writerEnv('cline', fx.env, fx.home);
    const before = sha256Tree(sessions());
    const staged = await clineWriter.stage(plan, env, staging);
    const result = await clineWriter.commit(staged, plan, env);
    expect(result.resume).toEqual(['cline', '--id', staged.nativeId]);
    // The session folder Baton made goes too, once empty (undo runs newest first).
    expect(result.undo.map((u) => (u.kind === 'file' || u.kind === 'empty-dir' ? u.path : u.kind))).toEqual([path.dirname(staged.files[0]!.finalPath), ...staged.files.map((f) => f.finalPath)]);
    const after = sha256Tree(sessions());
    for (const [f, h] of before) expect(after.get(f), f).toBe(h);

    const { sessions: read, messages } = await readStore(createClineAdapter(env.storeRoots));
    const found = read.find((s) => s.nativeId === result.nativeId);
    expect(found?.cwd).toBe(cwd);
    expect((messages.get(found!.id) ?? []).some((m) => m.text === LATEST_USER_TURN)).toBe(true);

    const again = await clineWriter.stage(plan, env, path.join(staging, 'again'));
    expect((await clineWriter.commit(again, plan, env)).nativeId).toBe(result.nativeId);
    expect(sha256Tree(sessions())).toEqual(after);
    expect((await clineWriter.stage({ ...plan, key: `${plan.key}+1` }, env, path.join(staging, 'later'))).nativeId).not.toBe(staged.nativeId);

    fs.writeFileSync(staged.files[1]!.finalPath, '{"someone":"else"}\n');
    await expect(clineWriter.commit(again, plan, env)).rejects.toThrow(/already exists/);
    expect(fs.readFileSync(staged.files[1]!.finalPath, 'utf8')).toBe('{"someone":"else"}\n');

    expect(runUndo(result.undo).failed).toEqual([]);
    const undone = sha256Tree(sessions());
    for (const [f, h] of before) expect(undone.get(f), f).toBe(h);
    expect(undone.has(staged.files[0]!.finalPath)).toBe(false);
    expect(fs.existsSync(path.dirname(staged.files[0]!.finalPath))).toBe(false);
  });

  it('writes into CLINE_SESSION_DATA_DIR when Cline keeps its sessions there', async () => {
    const own = path.join(path.dirname(fx.home), 'transcripts');
    fs.mkdirSync(own);
    const env = writerEnv('cline', { ...fx.env, CLINE_SESSION_DATA_DIR: own }, fx.home);
    const staged = await clineWriter.stage(await planFromClaudeFixture(fx.home, 'cline', cwd), env, staging);
    expect(staged.files[0]!.finalPath).toBe(path.join(own, staged.nativeId, `${staged.nativeId}.messages.json`));
  });

  it('check: no cline on PATH is not_installed, no sessions folder is store_missing, both is ok with the version', async () => {
    const bare = writerEnv('cline', { ...fx.env, PATH: path.join(path.dirname(fx.home), 'nothing-here') }, fx.home);
    expect(await clineWriter.check(bare)).toMatchObject({ ok: false, reason: 'not_installed' });
    const withBin = { ...fx.env, PATH: fakeBinDir(path.dirname(fx.home), 'cline', clineWriter.testedVersion) };
    expect(await clineWriter.check(writerEnv('cline', withBin, fx.home))).toEqual({ ok: true, version: clineWriter.testedVersion });
    const emptyHome = path.join(path.dirname(fx.home), 'empty-home');
    fs.mkdirSync(emptyHome);
    expect(await clineWriter.check(writerEnv('cline', { ...withBin, HOME: emptyHome }, emptyHome))).toMatchObject({ ok: false, reason: 'store_missing' });
  });
});
