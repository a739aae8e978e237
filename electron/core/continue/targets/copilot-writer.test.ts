import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCopilotAdapter } from '../../sources/copilot/copilot-adapter.js';
import { makeFixtureHome, type FixtureHome } from '../../../../testing/fixture-home.js';
import { planFromClaudeFixture } from '../../../../testing/continue-plan.js';
import { writerContract, writerEnv } from '../../../../testing/continue-writer-suite.js';
import { copilotWriter } from './copilot-writer.js';

interface Event {
  type: string;
  id: string;
  parentId: string | null;
  data: Record<string, unknown>;
}

describe('Copilot CLI native writer', () => {
  writerContract({ writer: copilotWriter, agent: 'copilot', adapter: (roots) => createCopilotAdapter(roots), storeDir: (home) => path.join(home, '.copilot', 'session-state') });

  let fx: FixtureHome;
  beforeEach(() => (fx = makeFixtureHome()));
  afterEach(() => fx.cleanup());

  it('writes session.start with the cwd, one id/parentId chain of turns, and a workspace.yaml naming the session', async () => {
    const cwd = path.join(path.dirname(fx.home), 'proj: with colon');
    fs.mkdirSync(cwd);
    const plan = await planFromClaudeFixture(fx.home, 'copilot', cwd);
    const staged = await copilotWriter.stage(plan, writerEnv('copilot', fx.env, fx.home), path.join(path.dirname(fx.home), 'stg'));
    expect(staged.nativeId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    const [events, workspace] = staged.files;
    expect(events!.finalPath).toBe(path.join(fx.home, '.copilot', 'session-state', staged.nativeId, 'events.jsonl'));
    expect(workspace!.finalPath).toBe(path.join(fx.home, '.copilot', 'session-state', staged.nativeId, 'workspace.yaml'));

    const lines = fs.readFileSync(events!.stagedPath, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Event);
    expect(lines[0]).toMatchObject({ type: 'session.start', parentId: null, data: { sessionId: staged.nativeId, version: 1, context: { cwd } } });
    lines.slice(1).forEach((e, i) => expect(e.parentId).toBe(lines[i]!.id));
    const kinds = lines.slice(1).map((e) => e.type);
    // Every assistant message sits in its own turn, after the user message it answers.
    const assistants = kinds.filter((k) => k === 'assistant.message').length;
    expect(kinds.filter((k) => k === 'user.message').length).toBe(assistants + (kinds.at(-1) === 'user.message' ? 1 : 0));
    expect(kinds.filter((k) => k === 'assistant.turn_start').length).toBe(assistants);
    expect(kinds.filter((k) => k === 'assistant.turn_end').length).toBe(assistants);

    // A name with a colon is quoted: Copilot refuses to resume a session whose workspace.yaml does not parse.
    const doc = parse(fs.readFileSync(workspace!.stagedPath, 'utf8')) as Record<string, unknown>;
    expect(doc).toMatchObject({ id: staged.nativeId, cwd, name: plan.title, user_named: true });
    expect(plan.title).toContain(':');
    // …and never folded over two lines, which Copilot's name lookup does not match.
    expect(fs.readFileSync(workspace!.stagedPath, 'utf8')).toContain(`name: ${JSON.stringify(plan.title)}\n`);
  });

  it('honours COPILOT_HOME and resumes with --resume=<id>', async () => {
    const home = path.join(path.dirname(fx.home), 'cp');
    const env = writerEnv('copilot', { ...fx.env, COPILOT_HOME: home }, fx.home);
    const cwd = path.join(path.dirname(fx.home), 'proj');
    fs.mkdirSync(cwd);
    const plan = await planFromClaudeFixture(fx.home, 'copilot', cwd);
    const staged = await copilotWriter.stage(plan, env, path.join(path.dirname(fx.home), 'stg'));
    expect(staged.files.every((f) => f.finalPath.startsWith(path.join(home, 'session-state', staged.nativeId)))).toBe(true);
    const result = await copilotWriter.commit(staged, plan, env);
    expect(result.resume).toEqual(['copilot', `--resume=${staged.nativeId}`]);
  });
});
