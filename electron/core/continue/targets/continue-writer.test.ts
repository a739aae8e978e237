/**
 * The Continue cn writer on a copy of the real fixture home (cn's own documents and sessions.json
 * included): stage touches nothing and reads back; commit adds one document and one sessions.json
 * entry in cn's own format, keeping every other entry; the same plan again changes nothing; undo
 * gives sessions.json back byte for byte, or (after cn rewrote it) takes out only Baton's entry.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createContinueAdapter } from '../../sources/continue-cli/continue-adapter.js';
import { makeFixtureHome, sha256Tree, type FixtureHome } from '../../../../testing/fixture-home.js';
import { LATEST_USER_TURN, PLANTED_DECISION, planFromClaudeFixture, readStore } from '../../../../testing/continue-plan.js';
import { fakeBinDir, writerEnv } from '../../../../testing/continue-writer-suite.js';
import type { WriterEnv } from '../native-writer.js';
import { readBack } from '../read-back.js';
import { runUndo } from '../undo-steps.js';
import { continueWriter } from './continue-writer.js';

let fx: FixtureHome;
let cwd: string;
let staging: string;
let env: WriterEnv;
let sessions: string;
let index: string;
beforeEach(() => {
  fx = makeFixtureHome();
  cwd = path.join(path.dirname(fx.home), 'work', 'demo-app');
  fs.mkdirSync(cwd, { recursive: true });
  staging = path.join(path.dirname(fx.home), 'staging');
  env = writerEnv('continue', fx.env, fx.home);
  sessions = path.join(fx.home, '.continue', 'sessions');
  index = path.join(sessions, 'sessions.json');
});
afterEach(() => fx.cleanup());

const entries = () => JSON.parse(fs.readFileSync(index, 'utf8')) as { sessionId: string; messageCount: number }[];

describe('Continue cn native writer', () => {
  it('stages without touching the store; Baton reads the staged session back with every turn', async () => {
    const plan = await planFromClaudeFixture(fx.home, 'continue', cwd);
    const before = sha256Tree(sessions);
    const staged = await continueWriter.stage(plan, env, staging);
    expect(sha256Tree(sessions)).toEqual(before);
    expect(staged.files.map((f) => f.finalPath)).toEqual([path.join(sessions, `${staged.nativeId}.json`)]);
    const doc = JSON.parse(fs.readFileSync(staged.files[0]!.stagedPath, 'utf8')) as Record<string, unknown> & { history: { message: { role: string; content: string }; editorState?: string }[] };
    // cn's HistoryManager key order, and a user item's text again as editorState.
    expect(Object.keys(doc)).toEqual(['sessionId', 'title', 'workspaceDirectory', 'history', 'usage']);
    expect(doc).toMatchObject({ sessionId: staged.nativeId, title: plan.title, workspaceDirectory: cwd });
    expect(doc.history[0]!.message.content).toContain(PLANTED_DECISION);
    expect(doc.history[0]!.editorState).toBe(doc.history[0]!.message.content);
    expect(doc.history.some((h) => h.message.role === 'user' && h.message.content === LATEST_USER_TURN)).toBe(true);
    expect(await readBack('continue', staged, plan, staged.nativeId)).toMatchObject({ ok: true });
  });

  it('commits the document and one sessions.json entry (cn’s format, every other entry kept); again is a no-op; undo gives sessions.json back byte for byte', async () => {
    const plan = await planFromClaudeFixture(fx.home, 'continue', cwd);
    const indexBefore = fs.readFileSync(index);
    const listBefore = entries();
    const before = sha256Tree(sessions);
    const staged = await continueWriter.stage(plan, env, staging);
    const result = await continueWriter.commit(staged, plan, env);
    expect(result).toMatchObject({ nativeId: staged.nativeId, resume: ['cn', '--resume'] });
    const after = entries();
    expect(after.slice(0, -1)).toEqual(listBefore);
    expect(after.at(-1)).toEqual({ sessionId: staged.nativeId, title: plan.title, dateCreated: String(Date.parse(plan.createdAt)), workspaceDirectory: cwd, messageCount: (plan.turns.length + 2) / 2 });
    expect(fs.readFileSync(index, 'utf8')).toBe(JSON.stringify(after, undefined, 2));
    expect(result.undo.map((u) => u.kind)).toEqual(['file', 'cn-index-entry']);

    // Baton's own reader finds it in the real store.
    const read = await readStore(createContinueAdapter(env.storeRoots));
    const found = read.sessions.find((s) => s.nativeId === result.nativeId);
    expect(found).toMatchObject({ cwd, title: plan.title });
    expect((read.messages.get(found!.id) ?? []).some((m) => m.text === LATEST_USER_TURN)).toBe(true);

    // Same plan again: same session, nothing more in sessions.json, nothing to undo twice.
    const snapshot = sha256Tree(sessions);
    const again = await continueWriter.commit(await continueWriter.stage(plan, env, path.join(staging, 'again')), plan, env);
    expect(again.nativeId).toBe(result.nativeId);
    expect(again.undo).toEqual([]);
    expect(sha256Tree(sessions)).toEqual(snapshot);

    expect(runUndo(result.undo).failed).toEqual([]);
    expect(fs.readFileSync(index).equals(indexBefore)).toBe(true);
    expect(sha256Tree(sessions)).toEqual(before);
  });

  it('undo after a cn resume updated Baton’s entry (messageCount) still gives the bytes from before back', async () => {
    const plan = await planFromClaudeFixture(fx.home, 'continue', cwd);
    const indexBefore = fs.readFileSync(index);
    const result = await continueWriter.commit(await continueWriter.stage(plan, env, staging), plan, env);
    fs.writeFileSync(index, JSON.stringify(entries().map((e) => (e.sessionId === result.nativeId ? { ...e, messageCount: 9 } : e)), undefined, 2));
    expect(runUndo(result.undo).failed).toEqual([]);
    expect(fs.readFileSync(index).equals(indexBefore)).toBe(true);
  });

  it('undo after cn rewrote sessions.json (a resume updated the entry, a new session added one) takes out only Baton’s entry', async () => {
    const plan = await planFromClaudeFixture(fx.home, 'continue', cwd);
    const listBefore = entries();
    const staged = await continueWriter.stage(plan, env, staging);
    const result = await continueWriter.commit(staged, plan, env);
    const cn = entries().map((e) => (e.sessionId === staged.nativeId ? { ...e, messageCount: e.messageCount + 1 } : e));
    const other = { sessionId: 'f0000000-0000-4000-8000-000000000000', title: 'Untitled Session', dateCreated: '1795760000000', workspaceDirectory: cwd, messageCount: 1 };
    fs.writeFileSync(index, JSON.stringify([...cn, other], undefined, 2));
    expect(runUndo(result.undo).failed).toEqual([]);
    expect(entries()).toEqual([...listBefore, other]);
    expect(fs.existsSync(staged.files[0]!.finalPath)).toBe(false);
  });

  it('creates sessions.json where cn has none yet, and the undo removes it again', async () => {
    fs.rmSync(index);
    const plan = await planFromClaudeFixture(fx.home, 'continue', cwd);
    const result = await continueWriter.commit(await continueWriter.stage(plan, env, staging), plan, env);
    expect(entries().map((e) => e.sessionId)).toEqual([result.nativeId]);
    runUndo(result.undo);
    expect(fs.existsSync(index)).toBe(false);
  });

  it('a sessions.json that is not a list of sessions is refused by check and commit; nothing is written', async () => {
    fs.writeFileSync(index, '{"not":"a list"}');
    const withBin = writerEnv('continue', { ...fx.env, PATH: fakeBinDir(path.dirname(fx.home), 'cn', continueWriter.testedVersion) }, fx.home);
    expect(await continueWriter.check(withBin)).toMatchObject({ ok: false, reason: 'unsupported' });
    const plan = await planFromClaudeFixture(fx.home, 'continue', cwd);
    const staged = await continueWriter.stage(plan, env, staging);
    await expect(continueWriter.commit(staged, plan, env)).rejects.toThrow(/not a list of sessions/);
    expect(fs.existsSync(staged.files[0]!.finalPath)).toBe(false);
    expect(fs.readFileSync(index, 'utf8')).toBe('{"not":"a list"}');
  });

  it('never edits an existing document: other content at the session path is refused and left alone', async () => {
    const plan = await planFromClaudeFixture(fx.home, 'continue', cwd);
    const staged = await continueWriter.stage(plan, env, staging);
    fs.writeFileSync(staged.files[0]!.finalPath, '{"someone":"else"}');
    const indexBefore = fs.readFileSync(index);
    await expect(continueWriter.commit(staged, plan, env)).rejects.toThrow(/already exists/);
    expect(fs.readFileSync(staged.files[0]!.finalPath, 'utf8')).toBe('{"someone":"else"}');
    expect(fs.readFileSync(index).equals(indexBefore)).toBe(true);
  });

  it('check: no cn on PATH is not_installed, no ~/.continue is store_missing, both present is ok with the version', async () => {
    const bare = writerEnv('continue', { ...fx.env, PATH: path.join(path.dirname(fx.home), 'nothing-here') }, fx.home);
    expect(await continueWriter.check(bare)).toMatchObject({ ok: false, reason: 'not_installed' });
    const withBin = { ...fx.env, PATH: fakeBinDir(path.dirname(fx.home), 'cn', continueWriter.testedVersion) };
    expect(await continueWriter.check(writerEnv('continue', withBin, fx.home))).toEqual({ ok: true, version: continueWriter.testedVersion });
    const emptyHome = path.join(path.dirname(fx.home), 'empty-home');
    fs.mkdirSync(emptyHome);
    expect(await continueWriter.check(writerEnv('continue', { ...withBin, HOME: emptyHome }, emptyHome))).toMatchObject({ ok: false, reason: 'store_missing' });
  });
});
