/**
 * Letta Code's native writer on a copy of the real fixture home (its Letta store included): the
 * staged conversation is read back by Baton's Letta reader with every turn; commit adds one new
 * conversation folder and touches nothing else; the same plan is the same conversation; an
 * existing file is never edited; the agent is the one last used (never a hidden subagent); undo
 * gives the store back; check names a missing CLI and a store with no agent.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLettaAdapter } from '../../sources/letta/letta-adapter.js';
import { makeFixtureHome, sha256Tree, type FixtureHome } from '../../../../testing/fixture-home.js';
import { LATEST_USER_TURN, PLANTED_DECISION, planFromClaudeFixture, readStore } from '../../../../testing/continue-plan.js';
import { fakeBinDir, writerEnv } from '../../../../testing/continue-writer-suite.js';
import { readBack } from '../read-back.js';
import { runUndo } from '../undo-steps.js';
import type { WriterEnv } from '../native-writer.js';
import { lettaConversationFolder, lettaTargetAgent, lettaWriter } from './letta-writer.js';

const LAST_USED = 'agent-local-2c99dc3d-9e33-4057-acba-3f92169b09c5';
const SUBAGENT = 'agent-local-a37cafd9-fc43-4511-b09d-b67b9d83b384';

describe('Letta Code native writer', () => {
  let fx: FixtureHome;
  let cwd: string;
  let env: WriterEnv;
  let backend: string;
  beforeEach(() => {
    fx = makeFixtureHome();
    cwd = path.join(path.dirname(fx.home), 'work', 'demo-app');
    fs.mkdirSync(cwd, { recursive: true });
    env = writerEnv('letta', fx.env, fx.home);
    backend = path.join(fx.home, '.letta', 'lc-local-backend');
    // What `letta` keeps in settings.json: the agent last used on the local backend.
    fs.writeFileSync(path.join(fx.home, '.letta', 'settings.json'), JSON.stringify({ preferredBackendMode: 'local', sessionsByServer: { [`local:${backend}`]: { agentId: LAST_USED, conversationId: 'local-conv-8' } } }));
  });
  afterEach(() => fx.cleanup());

  it('stages a conversation folder Baton reads back with its turns, for the agent last used', async () => {
    const plan = await planFromClaudeFixture(fx.home, 'letta', cwd);
    const before = sha256Tree(backend);
    const staged = await lettaWriter.stage(plan, env, path.join(path.dirname(fx.home), 'stg'));
    expect(sha256Tree(backend)).toEqual(before);
    expect(staged.nativeId).toMatch(/^local-conv-baton-[0-9a-f]{12}$/);
    expect(staged.files.map((f) => path.basename(f.finalPath))).toEqual(['messages.jsonl', 'manifest.json', 'conversation.json']);
    expect(path.dirname(staged.files[0]!.finalPath)).toBe(path.join(backend, 'conversations', lettaConversationFolder(staged.nativeId)));
    const conversation = JSON.parse(fs.readFileSync(staged.files[2]!.stagedPath, 'utf8')) as { id: string; agent_id: string; summary: string; in_context_message_ids: string[] };
    const lines = fs.readFileSync(staged.files[0]!.stagedPath, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { type: string; message?: { id: string; metadata: { agent_id: string } } });
    expect(conversation).toMatchObject({ id: staged.nativeId, agent_id: LAST_USED, summary: plan.title });
    // Every message is in Letta's context list, in order.
    expect(conversation.in_context_message_ids).toEqual(lines.filter((l) => l.type === 'message').map((l) => l.message!.id));
    expect(lines[0]).toMatchObject({ type: 'session', version: 3, id: staged.nativeId, cwd });
    expect(JSON.parse(fs.readFileSync(staged.files[1]!.stagedPath, 'utf8'))).toMatchObject({ schema_version: 2, message_format: 'pi-session-entry-jsonl', provider_stack: 'pi-ai' });

    const { sessions, messages } = await readStore(createLettaAdapter(staged.readBackRoots));
    expect(sessions.map((s) => s.nativeId)).toEqual([staged.nativeId]);
    expect(sessions[0]).toMatchObject({ cwd, title: plan.title });
    const texts = (messages.get(sessions[0]!.id) ?? []).map((m) => m.text);
    expect(texts[0]).toContain(PLANTED_DECISION);
    expect(texts).toContain(LATEST_USER_TURN);
    expect(await readBack('letta', staged, plan, staged.nativeId)).toMatchObject({ ok: true });
  });

  it('commits one new folder, the same plan is the same conversation, an existing file is never edited, undo gives the store back', async () => {
    const plan = await planFromClaudeFixture(fx.home, 'letta', cwd);
    const before = sha256Tree(backend);
    const staged = await lettaWriter.stage(plan, env, path.join(path.dirname(fx.home), 'stg'));
    const result = await lettaWriter.commit(staged, plan, env);
    expect(result.resume).toEqual(['letta', '--conversation', staged.nativeId]);
    const after = sha256Tree(backend);
    for (const [f, h] of before) expect(after.get(f), f).toBe(h);
    expect([...after.keys()].filter((f) => !before.has(f)).sort()).toEqual(staged.files.map((f) => f.finalPath).sort());
    const { sessions } = await readStore(createLettaAdapter(env.storeRoots));
    expect(sessions.find((s) => s.nativeId === staged.nativeId)?.cwd).toBe(cwd);

    const again = await lettaWriter.stage(plan, env, path.join(path.dirname(fx.home), 'stg2'));
    expect(again.nativeId).toBe(staged.nativeId);
    await lettaWriter.commit(again, plan, env);
    expect(sha256Tree(backend)).toEqual(after);
    expect((await lettaWriter.stage({ ...plan, key: `${plan.key}+1` }, env, path.join(path.dirname(fx.home), 'stg3'))).nativeId).not.toBe(staged.nativeId);

    expect(runUndo(result.undo).failed).toEqual([]);
    expect(sha256Tree(backend)).toEqual(before);
    expect(fs.existsSync(path.dirname(staged.files[0]!.finalPath))).toBe(false);

    const target = staged.files[0]!.finalPath;
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, '{"someone":"else"}\n');
    await expect(lettaWriter.commit(staged, plan, env)).rejects.toThrow(/already exists/);
    expect(fs.readFileSync(target, 'utf8')).toBe('{"someone":"else"}\n');
  });

  it('takes the first agent that is not a subagent when none was used last; never a hidden subagent', () => {
    fs.writeFileSync(path.join(fx.home, '.letta', 'settings.json'), JSON.stringify({ sessionsByServer: { [`local:${backend}`]: { agentId: SUBAGENT } } }));
    const agent = lettaTargetAgent(env);
    expect(agent?.id).not.toBe(SUBAGENT);
    expect(agent).toEqual({ id: expect.stringMatching(/^agent-local-/), model: 'openai-compatible/mock-model' });
  });

  it('check: no CLI is not_installed, no agent is store_missing, both present is ok with the version', async () => {
    expect(await lettaWriter.check(writerEnv('letta', { ...fx.env, PATH: path.join(path.dirname(fx.home), 'nothing-here') }, fx.home))).toMatchObject({ ok: false, reason: 'not_installed' });
    const withBin = { ...fx.env, PATH: fakeBinDir(path.dirname(fx.home), 'letta', lettaWriter.testedVersion) };
    expect(await lettaWriter.check(writerEnv('letta', withBin, fx.home))).toEqual({ ok: true, version: lettaWriter.testedVersion });
    for (const f of fs.readdirSync(path.join(backend, 'agents'))) fs.rmSync(path.join(backend, 'agents', f));
    expect(await lettaWriter.check(writerEnv('letta', withBin, fx.home))).toMatchObject({ ok: false, reason: 'store_missing', message: expect.stringMatching(/no local agent/) });
    const emptyHome = path.join(path.dirname(fx.home), 'empty-home');
    fs.mkdirSync(emptyHome);
    expect(await lettaWriter.check(writerEnv('letta', { ...withBin, HOME: emptyHome }, emptyHome))).toMatchObject({ ok: false, reason: 'store_missing' });
  });
});
