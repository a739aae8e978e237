// Continue cn as a first-class agent of Baton, end to end over the real fixture store: real
// adapter → real index.db → the API every surface (UI, IPC, HTTP, MCP, CLI) goes through.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BatonCore } from '../../service.js';
import { startFixtureCore } from '../../../../testing/fixture-core.js';
import { expectedSessions, makeFixtureHome, type FixtureHome } from '../../../../testing/fixture-home.js';

describe('Continue cn sessions in Baton', () => {
  let fixture: FixtureHome;
  let core: BatonCore;
  const expected = expectedSessions().filter((s) => s.agent === 'continue');

  beforeAll(async () => {
    fixture = makeFixtureHome();
    core = await startFixtureCore(fixture);
  });
  afterAll(async () => {
    await core.close();
    fixture.cleanup();
  });

  it('lists them with the agent filter, as the ground truth says', async () => {
    const page = await core.api.listSessions({ agent: 'continue', limit: 100, offset: 0 });
    expect(page.total).toBe(expected.length);
    for (const want of expected) {
      expect(page.sessions.find((s) => s.id === `continue:${want.id}`)).toMatchObject({ agent: 'continue', cwd: want.cwd, gitBranch: want.gitBranch, firstPrompt: want.firstPrompt, userTurns: want.userTurns, title: want.title });
    }
  });

  it('finds their text with `agent:continue`, and only theirs', async () => {
    const hits = await core.api.search({ query: 'agent:continue 買い物リスト', limit: 50 });
    expect(hits.map((h) => h.sessionId)).toContain('continue:374e41c6-2959-47ef-85af-8d963d89e37e');
    expect(hits.every((h) => h.agent === 'continue')).toBe(true);
  });

  it('renders a brief for Continue in its own tool vocabulary, with the file it wrote and the command to open it', async () => {
    const brief = await core.api.generateBrief({ session: 'continue:9fd09683', target: 'continue', format: 'md', redact: true });
    expect(brief.text).toContain('Agent: Continue');
    expect(brief.text).toContain('Run `ls -la` and give me a quick overview of the files here.');
    expect(brief.text).toMatch(/`NOTES\.md` — written \(Write, #\d+\)/);
    expect(brief.text).toContain('## Instructions for Continue');
    expect(brief.text).toContain('use the Read tool on the files touched; change them with Edit/Write');
    expect(brief.openCommand).toBe("cd '/home/ana/projects/demo-app' && cn");
    const secret = await core.api.generateBrief({ session: 'continue:e93ddacf', target: 'continue', format: 'md', redact: true });
    expect(secret.text).not.toContain('ghp_R8mZt2LwQ4vXn7KpY1sHc9DfJ3gUa6Eb0NoT');
  });

  it('reports the store in source status and validates its Settings path', async () => {
    const status = (await core.api.sourceStatus({})).find((s) => s.agent === 'continue')!;
    expect(status).toMatchObject({ state: 'ok', sessions: expected.length, skippedLines: 0, lastError: null, roots: [path.join(fixture.home, '.continue')] });
    expect(await core.api.checkPath({ agent: 'continue', path: path.join(fixture.home, '.continue') })).toMatchObject({ exists: true, readable: true, sessions: expected.length, error: null });
    const empty = path.join(fixture.home, 'no-continue-here');
    fs.mkdirSync(empty);
    expect((await core.api.checkPath({ agent: 'continue', path: empty })).error).toBe('No sessions found here (expected sessions/<session>.json below this folder).');
  });
});
