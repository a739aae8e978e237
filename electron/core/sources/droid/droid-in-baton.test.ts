// Factory Droid as an agent of Baton, end to end over the real fixture store: real adapter → real
// index.db → the API every surface (UI, IPC, HTTP, MCP, CLI) goes through.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BatonCore } from '../../service.js';
import { startFixtureCore } from '../../../../testing/fixture-core.js';
import { expectedSessions, makeFixtureHome, type FixtureHome } from '../../../../testing/fixture-home.js';

describe('Factory Droid sessions in Baton', () => {
  let fixture: FixtureHome;
  let core: BatonCore;
  const expected = expectedSessions().filter((s) => s.agent === 'droid');

  beforeAll(async () => {
    fixture = makeFixtureHome();
    core = await startFixtureCore(fixture);
  });
  afterAll(async () => {
    await core.close();
    fixture.cleanup();
  });

  it('lists them with the agent filter, as the ground truth says', async () => {
    const page = await core.api.listSessions({ agent: 'droid', limit: 100, offset: 0 });
    expect(page.total).toBe(expected.length);
    for (const want of expected) {
      expect(page.sessions.find((s) => s.id === `droid:${want.id}`)).toMatchObject({ agent: 'droid', cwd: want.cwd, firstPrompt: want.firstPrompt, userTurns: want.userTurns, title: want.title });
    }
  });

  it('finds their text with `agent:droid`, and only theirs', async () => {
    const hits = await core.api.search({ query: 'agent:droid 買い物リスト', limit: 50 });
    expect(hits.map((h) => h.sessionId)).toContain('droid:6dc9bb49-2969-4673-a443-f323183dc77a');
    expect(hits.every((h) => h.agent === 'droid')).toBe(true);
  });

  it('briefs a Droid session (its Create and Execute calls understood) and renders a brief for Droid in its tool vocabulary', async () => {
    const brief = await core.api.generateBrief({ session: 'droid:419c8c4a', target: 'droid', format: 'md', redact: true });
    expect(brief.text).toContain('Run `ls -la` and give me a quick overview of the files here.');
    expect(brief.text).toMatch(/`NOTES\.md` — created \(Create, #\d+\)/);
    expect(brief.text).toContain('## Instructions for Factory Droid');
    expect(brief.text).toContain('use the Read tool on the files touched; change them with Edit/Create');
    expect(brief.openCommand).toBe("cd '/home/ana/projects/demo-app' && droid");
    const secret = await core.api.generateBrief({ session: 'droid:4ce89a0f', target: 'generic', format: 'md', redact: true });
    expect(secret.text).not.toContain('ghp_R8mZt2LwQ4vXn7KpY1sHc9DfJ3gUa6Eb0NoT');
  });

  it('reports the store in source status and validates a Settings path', async () => {
    const status = (await core.api.sourceStatus({})).find((s) => s.agent === 'droid')!;
    expect(status).toMatchObject({ state: 'ok', sessions: expected.length, skippedLines: 0, lastError: null, roots: [path.join(fixture.home, '.factory')] });
    expect(await core.api.checkPath({ agent: 'droid', path: path.join(fixture.home, '.factory') })).toMatchObject({ exists: true, readable: true, sessions: expected.length, error: null });
    const empty = path.join(fixture.home, 'no-droid-here');
    fs.mkdirSync(empty);
    expect((await core.api.checkPath({ agent: 'droid', path: empty })).error).toBe('No sessions found here (expected sessions/<cwd folder>/<session>.jsonl below this folder).');
  });
});
