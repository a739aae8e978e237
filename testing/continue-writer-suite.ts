/**
 * The contract tests every JSONL "continue natively" writer passes, on a copy of the real fixture
 * home (its existing stores included): stage writes nothing in the store and Baton's own reader of
 * the target reads the staged session back with its turns; commit adds exactly one new file, which
 * the same reader finds in the real store; the same plan gives the same session (idempotent); an
 * existing file of other content is never touched; the undo steps give the store back; check names
 * a missing CLI and a missing store.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { AgentId } from '../shared/model.js';
import type { NativeWriter, WriterEnv } from '../electron/core/continue/native-writer.js';
import type { SourceAdapter } from '../electron/core/sources/types.js';
import { defaultStoreRoots, type Environment } from '../electron/core/paths.js';
import { readBack } from '../electron/core/continue/read-back.js';
import { makeFixtureHome, sha256Tree, type FixtureHome } from './fixture-home.js';
import { LATEST_USER_TURN, PLANTED_DECISION, planFromClaudeFixture, readStore } from './continue-plan.js';

export interface WriterSuiteOptions {
  writer: NativeWriter;
  agent: AgentId;
  /** Whose reader reads the staged files, when not the agent's own. */
  readerAgent?: AgentId;
  adapter(roots: string[]): SourceAdapter;
  /** The folder whose files must not change except for what commit adds (the agent's store). */
  storeDir(home: string): string;
}

export function writerEnv(agent: AgentId, env: NodeJS.ProcessEnv, home: string): WriterEnv {
  const environment: Environment = { env, platform: process.platform, home };
  return { environment, storeRoots: defaultStoreRoots(agent, environment) };
}

/** A directory on PATH holding an executable `<bin>` that prints `version` (for check's lookup only). */
export function fakeBinDir(root: string, bin: string, version: string): string {
  const dir = path.join(root, 'bin');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, bin), `#!/bin/sh\necho ${version}\n`, { mode: 0o755 });
  return dir;
}

export function writerContract(o: WriterSuiteOptions): void {
  let fx: FixtureHome;
  let cwd: string;
  let staging: string;
  let env: WriterEnv;
  beforeEach(() => {
    fx = makeFixtureHome();
    cwd = path.join(path.dirname(fx.home), 'work', 'demo-app');
    fs.mkdirSync(cwd, { recursive: true });
    staging = path.join(path.dirname(fx.home), 'staging');
    env = writerEnv(o.agent, fx.env, fx.home);
  });
  afterEach(() => fx.cleanup());

  it('stages without touching the store; Baton reads the staged session back with its turns', async () => {
    const plan = await planFromClaudeFixture(fx.home, o.agent, cwd);
    const before = sha256Tree(o.storeDir(fx.home));
    const staged = await o.writer.stage(plan, env, staging);
    expect(sha256Tree(o.storeDir(fx.home))).toEqual(before);
    const { sessions, messages } = await readStore(o.adapter(staged.readBackRoots));
    expect(sessions.map((s) => s.nativeId)).toEqual([staged.nativeId]);
    const s = sessions[0]!;
    expect(s.cwd).toBe(cwd);
    expect(s.title).toContain('Continued from Claude Code');
    const texts = (messages.get(s.id) ?? []).map((m) => `${m.role}:${m.text}`);
    expect(texts[0]).toMatch(/^user:Continued from Claude Code/);
    expect(texts[0]).toContain(PLANTED_DECISION);
    expect(texts.some((t) => t === `user:${LATEST_USER_TURN}`)).toBe(true);
    // Every verbatim turn is there, in order, alternating.
    const roles = (messages.get(s.id) ?? []).filter((m) => m.role === 'user' || m.role === 'assistant').map((m) => m.role);
    roles.forEach((r, i) => expect(r).toBe(i % 2 === 0 ? 'user' : 'assistant'));
    // The planner's opening turn and its acknowledgement, then every planned turn.
    expect(roles.length).toBe(plan.turns.length + 2);
    // The gate `baton continue` applies before commit passes.
    expect(await readBack(o.readerAgent ?? o.agent, staged, plan, staged.nativeId)).toMatchObject({ ok: true });
  });

  it('commits one new file the reader finds in the real store; the same plan is the same session; undo gives the store back', async () => {
    const plan = await planFromClaudeFixture(fx.home, o.agent, cwd);
    const store = o.storeDir(fx.home);
    fs.mkdirSync(store, { recursive: true });
    const before = sha256Tree(store);
    const staged = await o.writer.stage(plan, env, staging);
    const result = await o.writer.commit(staged, plan, env);
    expect(result.nativeId).toBe(staged.nativeId);
    expect(result.resume[0]).toBe(o.agent);
    const after = sha256Tree(store);
    const added = [...after.keys()].filter((f) => !before.has(f));
    for (const [f, h] of before) expect(after.get(f), f).toBe(h);
    const fileSteps = result.undo.filter((u) => u.kind === 'file').map((u) => u.path);
    // One file for most agents; Copilot CLI's session is a folder of two.
    expect(fileSteps).toEqual(staged.files.map((f) => f.finalPath));
    for (const f of staged.files) expect(added).toContain(f.finalPath);

    const { sessions, messages } = await readStore(o.adapter(env.storeRoots));
    const found = sessions.find((s) => s.nativeId === result.nativeId);
    expect(found?.cwd).toBe(cwd);
    expect((messages.get(found!.id) ?? []).some((m) => m.text === LATEST_USER_TURN)).toBe(true);

    // Same source state again: same id, same bytes, nothing new.
    const again = await o.writer.stage(plan, env, path.join(staging, 'again'));
    expect(again.nativeId).toBe(staged.nativeId);
    again.files.forEach((f, i) => expect(fs.readFileSync(f.stagedPath)).toEqual(fs.readFileSync(staged.files[i]!.finalPath)));
    const second = await o.writer.commit(again, plan, env);
    expect(second.nativeId).toBe(result.nativeId);
    expect(sha256Tree(store)).toEqual(after);

    // A later source state is another session.
    const later = await o.writer.stage({ ...plan, key: `${plan.key}+1` }, env, path.join(staging, 'later'));
    expect(later.nativeId).not.toBe(staged.nativeId);

    for (const step of result.undo) if (step.kind === 'file') fs.rmSync(step.path);
    const undone = sha256Tree(store);
    for (const [f, h] of before) expect(undone.get(f), f).toBe(h);
    for (const f of staged.files) expect(undone.has(f.finalPath)).toBe(false);
  });

  it('never edits an existing file: other content at the session path is refused and left alone', async () => {
    const plan = await planFromClaudeFixture(fx.home, o.agent, cwd);
    const staged = await o.writer.stage(plan, env, staging);
    const target = staged.files[0]!.finalPath;
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, '{"someone":"else"}\n');
    await expect(o.writer.commit(staged, plan, env)).rejects.toThrow(/already exists/);
    expect(fs.readFileSync(target, 'utf8')).toBe('{"someone":"else"}\n');
  });

  it('check: no CLI on PATH is not_installed, a missing store is store_missing, both present is ok with the version', async () => {
    const bare = writerEnv(o.agent, { ...fx.env, PATH: path.join(path.dirname(fx.home), 'nothing-here') }, fx.home);
    expect(await o.writer.check(bare)).toMatchObject({ ok: false, reason: 'not_installed' });
    const withBin = { ...fx.env, PATH: fakeBinDir(path.dirname(fx.home), o.agent, o.writer.testedVersion) };
    expect(await o.writer.check(writerEnv(o.agent, withBin, fx.home))).toEqual({ ok: true, version: o.writer.testedVersion });
    const emptyHome = path.join(path.dirname(fx.home), 'empty-home');
    fs.mkdirSync(emptyHome);
    const missing = await o.writer.check(writerEnv(o.agent, { ...withBin, HOME: emptyHome }, emptyHome));
    expect(missing).toMatchObject({ ok: false, reason: 'store_missing' });
  });
}
