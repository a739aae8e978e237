// GitHub Copilot CLI as a first-class agent of Baton, end to end over the real fixture store: real
// adapter → real index.db → the API every surface (UI, IPC, HTTP, MCP, CLI) goes through.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BatonCore } from '../../service.js';
import { startFixtureCore } from '../../../../testing/fixture-core.js';
import { expectedSessions, makeFixtureHome, type FixtureHome } from '../../../../testing/fixture-home.js';

describe('GitHub Copilot CLI sessions in Baton', () => {
  let fixture: FixtureHome;
  let core: BatonCore;
  const expected = expectedSessions().filter((s) => s.agent === 'copilot');

  beforeAll(async () => {
    fixture = makeFixtureHome();
    core = await startFixtureCore(fixture);
  });
  afterAll(async () => {
    await core.close();
    fixture.cleanup();
  });

  it('lists them with the agent filter, as the ground truth says', async () => {
    const page = await core.api.listSessions({ agent: 'copilot', limit: 100, offset: 0 });
    expect(page.total).toBe(expected.length);
    for (const want of expected) {
      expect(page.sessions.find((s) => s.id === `copilot:${want.id}`)).toMatchObject({ agent: 'copilot', cwd: want.cwd, gitBranch: want.gitBranch, firstPrompt: want.firstPrompt, userTurns: want.userTurns, title: want.title });
    }
  });

  it('finds their text with `agent:copilot`, and only theirs', async () => {
    const hits = await core.api.search({ query: 'agent:copilot 買い物リスト', limit: 50 });
    expect(hits.map((h) => h.sessionId)).toContain('copilot:908d399e-9fea-4d26-b0c9-0d6efd2e37b1');
    expect(hits.every((h) => h.agent === 'copilot')).toBe(true);
  });

  it('renders a brief for Copilot CLI in its own tool vocabulary, with the file it created and the command to open it', async () => {
    const brief = await core.api.generateBrief({ session: 'copilot:97f2ac22', target: 'copilot', format: 'md', redact: true });
    expect(brief.text).toContain('Agent: GitHub Copilot CLI');
    expect(brief.text).toContain('Run `ls -la` and give me a quick overview of the files here.');
    expect(brief.text).toMatch(/`NOTES\.md` — created \(create, #\d+\)/);
    expect(brief.text).toContain('## Instructions for GitHub Copilot CLI');
    expect(brief.text).toContain('use the view tool on the files touched; change them with the edit/create tools');
    expect(brief.openCommand).toBe("cd '/home/ana/projects/demo-app' && copilot");
    const secret = await core.api.generateBrief({ session: 'copilot:35af99fe', target: 'copilot', format: 'md', redact: true });
    expect(secret.text).not.toContain('ghp_R8mZt2LwQ4vXn7KpY1sHc9DfJ3gUa6Eb0NoT');
  });

  it('reports the store in source status and validates its Settings path', async () => {
    const status = (await core.api.sourceStatus({})).find((s) => s.agent === 'copilot')!;
    expect(status).toMatchObject({ state: 'ok', sessions: expected.length, skippedLines: 0, lastError: null, roots: [path.join(fixture.home, '.copilot')] });
    expect(await core.api.checkPath({ agent: 'copilot', path: path.join(fixture.home, '.copilot') })).toMatchObject({ exists: true, readable: true, sessions: expected.length, error: null });
    const empty = path.join(fixture.home, 'no-copilot-here');
    fs.mkdirSync(empty);
    expect((await core.api.checkPath({ agent: 'copilot', path: empty })).error).toBe('No sessions found here (expected session-state/<session>/events.jsonl below this folder).');
  });
});
