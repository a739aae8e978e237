// Letta Code (local backend) as an agent of Baton, end to end over the real fixture store: real
// adapter → real index.db → the API every surface (UI, IPC, HTTP, MCP, CLI) goes through.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BatonCore } from '../../service.js';
import { startFixtureCore } from '../../../../testing/fixture-core.js';
import { expectedSessions, makeFixtureHome, type FixtureHome } from '../../../../testing/fixture-home.js';

describe('Letta Code sessions in Baton', () => {
  let fixture: FixtureHome;
  let core: BatonCore;
  const expected = expectedSessions().filter((s) => s.agent === 'letta');

  beforeAll(async () => {
    fixture = makeFixtureHome();
    core = await startFixtureCore(fixture);
  });
  afterAll(async () => {
    await core.close();
    fixture.cleanup();
  });

  it('lists them with the agent filter, as the ground truth says', async () => {
    const page = await core.api.listSessions({ agent: 'letta', limit: 100, offset: 0 });
    expect(page.total).toBe(expected.length);
    for (const want of expected) {
      expect(page.sessions.find((s) => s.id === `letta:${want.id}`)).toMatchObject({ agent: 'letta', cwd: want.cwd, gitBranch: want.gitBranch, firstPrompt: want.firstPrompt, userTurns: want.userTurns, title: want.title });
    }
  });

  it('finds their text with `agent:letta`, and only theirs; injected reminders are not searchable', async () => {
    const hits = await core.api.search({ query: 'agent:letta 買い物リスト', limit: 50 });
    expect(hits.map((h) => h.sessionId)).toContain('letta:local-conv-8');
    expect(hits.every((h) => h.agent === 'letta')).toBe(true);
    expect(await core.api.search({ query: 'agent:letta "Memory directory"', limit: 50 })).toEqual([]);
  });

  it('briefs a Letta conversation and renders a brief for Letta Code in its tool vocabulary', async () => {
    const brief = await core.api.generateBrief({ session: 'letta:local-conv-2', target: 'letta', format: 'md', redact: true });
    expect(brief.text).toContain('Run `ls -la` and give me a quick overview of the files here.');
    expect(brief.text).toMatch(/`NOTES\.md` — written \(Write, #\d+\)/);
    expect(brief.text).toContain('## Instructions for Letta Code');
    expect(brief.text).toContain('use the Read tool on the files touched; change them with Edit/Write');
    expect(brief.openCommand).toBe("cd '/home/ana/projects/demo-app' && letta");
    const secret = await core.api.generateBrief({ session: 'letta:local-conv-7', target: 'generic', format: 'md', redact: true });
    expect(secret.text).not.toContain('ghp_R8mZt2LwQ4vXn7KpY1sHc9DfJ3gUa6Eb0NoT');
  });

  it('reports the store in source status and validates a Settings path', async () => {
    const status = (await core.api.sourceStatus({})).find((s) => s.agent === 'letta')!;
    expect(status).toMatchObject({ state: 'ok', sessions: expected.length, skippedLines: 0, lastError: null, roots: [path.join(fixture.home, '.letta')] });
    expect(await core.api.checkPath({ agent: 'letta', path: path.join(fixture.home, '.letta') })).toMatchObject({ exists: true, readable: true, sessions: expected.length, error: null });
    const empty = path.join(fixture.home, 'no-letta-here');
    fs.mkdirSync(empty);
    expect((await core.api.checkPath({ agent: 'letta', path: empty })).error).toBe('No sessions found here (expected lc-local-backend/conversations/<conversation>/messages.jsonl below this folder).');
  });
});
