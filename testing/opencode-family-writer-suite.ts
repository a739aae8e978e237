/**
 * What the OpenCode-family writers (OpenCode, Kilo Code) share in their unit tests, on a copy of the
 * real fixture home: stage leaves the store alone, writes a deterministic import document and a
 * storage tree Baton's reader reads back; check names a missing CLI, a missing or a locked database.
 * Commit runs the real `<bin> import`, so it is tested in e2e/agents/continue-<agent>.test.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { AgentId } from '../shared/model.js';
import type { NativeWriter, StagedSession, WriterEnv } from '../electron/core/continue/native-writer.js';
import type { SourceAdapter } from '../electron/core/sources/types.js';
import type { OpenCodeDocument } from '../electron/core/continue/targets/opencode-export.js';
import { readBack } from '../electron/core/continue/read-back.js';
import { makeFixtureHome, sha256Tree, type FixtureHome } from './fixture-home.js';
import { LATEST_USER_TURN, PLANTED_DECISION, planFromClaudeFixture, readStore } from './continue-plan.js';
import { fakeBinDir, writerEnv } from './continue-writer-suite.js';

export interface OpenCodeFamilySuite {
  agent: AgentId;
  writer: NativeWriter;
  bin: string;
  version: string;
  dbPath(env: WriterEnv): string;
  adapter(roots: string[]): SourceAdapter;
  /** Before staging: e.g. write the agent's config. */
  prepare?(home: string): void;
  /** The agent's own checks of the staged document. */
  expectDocument(doc: OpenCodeDocument, staged: StagedSession, cwd: string): void;
}

export function openCodeFamilyWriterSuite(o: OpenCodeFamilySuite): void {
  let fx: FixtureHome;
  let cwd: string;
  beforeEach(() => {
    fx = makeFixtureHome();
    cwd = path.join(path.dirname(fx.home), 'proj');
    fs.mkdirSync(cwd);
  });
  afterEach(() => fx.cleanup());

  it(`stages an import document and a storage tree Baton's ${o.agent} reader reads back, leaving the database alone`, async () => {
    o.prepare?.(fx.home);
    const env = writerEnv(o.agent, fx.env, fx.home);
    const data = path.dirname(o.dbPath(env));
    const before = sha256Tree(data);
    const plan = await planFromClaudeFixture(fx.home, o.agent, cwd);
    const staged = await o.writer.stage(plan, env, path.join(path.dirname(fx.home), 'stg'));
    expect(sha256Tree(data)).toEqual(before);
    expect(staged.nativeId).toMatch(/^ses_[0-9a-f]{12}[0-9A-Za-z]{14}$/);
    const doc = JSON.parse(fs.readFileSync(String(staged.extra?.documentPath), 'utf8')) as OpenCodeDocument;
    expect(doc.info).toMatchObject({ id: staged.nativeId, version: o.version });
    o.expectDocument(doc, staged, cwd);
    expect(await readBack(o.agent, staged, plan, staged.nativeId)).toMatchObject({ ok: true });
    const { sessions, messages } = await readStore(o.adapter(staged.readBackRoots));
    const s = sessions.find((x) => x.nativeId === staged.nativeId)!;
    expect(s).toMatchObject({ id: `${o.agent}:${staged.nativeId}`, cwd });
    const texts = (messages.get(s.id) ?? []).map((m) => m.text);
    expect(texts.some((t) => t.includes(PLANTED_DECISION))).toBe(true);
    expect(texts).toContain(LATEST_USER_TURN);
    // Same plan → same document.
    const again = await o.writer.stage(plan, env, path.join(path.dirname(fx.home), 'stg2'));
    expect(fs.readFileSync(String(again.extra?.documentPath), 'utf8')).toBe(fs.readFileSync(String(staged.extra?.documentPath), 'utf8'));
  });

  it('check: not installed, database missing, database locked by a writer, ok', async () => {
    expect(await o.writer.check(writerEnv(o.agent, { ...fx.env, PATH: '/nonexistent' }, fx.home))).toMatchObject({ ok: false, reason: 'not_installed' });
    const withBin = { ...fx.env, PATH: fakeBinDir(path.dirname(fx.home), o.bin, o.version) };
    const env = writerEnv(o.agent, withBin, fx.home);
    expect(await o.writer.check(env)).toEqual({ ok: true, version: o.version });
    const db = o.dbPath(env);
    const holder = new Database(db);
    holder.exec('BEGIN IMMEDIATE');
    try {
      expect(await o.writer.check(env)).toMatchObject({ ok: false, reason: 'locked' });
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
    fs.rmSync(db);
    expect(await o.writer.check(env)).toMatchObject({ ok: false, reason: 'store_missing', message: expect.stringContaining(path.basename(db)) });
  });
}
