// Qwen Code as a first-class agent of Baton, end to end over the real fixture store: real adapter →
// real index.db → the API every surface (UI, IPC, HTTP, MCP, CLI) goes through.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BatonCore } from '../../service.js';
import { startFixtureCore } from '../../../../testing/fixture-core.js';
import { expectedSessions, makeFixtureHome, type FixtureHome } from '../../../../testing/fixture-home.js';

describe('Qwen Code sessions in Baton', () => {
  let fixture: FixtureHome;
  let core: BatonCore;
  const expected = expectedSessions().filter((s) => s.agent === 'qwen');

  beforeAll(async () => {
    fixture = makeFixtureHome();
    core = await startFixtureCore(fixture);
  });
  afterAll(async () => {
    await core.close();
    fixture.cleanup();
  });

  it('lists them with the agent filter, as the ground truth says', async () => {
    const page = await core.api.listSessions({ agent: 'qwen', limit: 100, offset: 0 });
    expect(page.total).toBe(expected.length);
    for (const want of expected) {
      expect(page.sessions.find((s) => s.id === `qwen:${want.id}`)).toMatchObject({ agent: 'qwen', cwd: want.cwd, gitBranch: want.gitBranch, firstPrompt: want.firstPrompt, userTurns: want.userTurns });
    }
  });

  it('finds their text with `agent:qwen`, and only theirs', async () => {
    const hits = await core.api.search({ query: 'agent:qwen 買い物リスト', limit: 50 });
    expect(hits.map((h) => h.sessionId)).toContain('qwen:940ec9c1-976f-4c56-930a-23f4f0470a23');
    const coffee = await core.api.search({ query: 'agent:qwen coffee', limit: 50 });
    expect(coffee.length).toBeGreaterThan(0);
    expect(coffee.every((h) => h.agent === 'qwen')).toBe(true);
    // Other agents' sessions hold the same shopping list; the filter keeps them out.
    expect((await core.api.search({ query: 'coffee', limit: 200 })).some((h) => h.agent !== 'qwen')).toBe(true);
  });

  it('renders a brief for Qwen Code in its own tool vocabulary, with the files written and the command to open it', async () => {
    const brief = await core.api.generateBrief({ session: 'qwen:8b19fe0d', target: 'qwen', format: 'md', redact: true });
    expect(brief.target).toBe('qwen');
    expect(brief.text).toContain('Agent: Qwen Code');
    expect(brief.text).toContain('Run `ls -la` and give me a quick overview of the files here.');
    expect(brief.text).toMatch(/`NOTES\.md` — written \(write_file, #\d+\)/);
    expect(brief.text).toContain('## Instructions for Qwen Code');
    expect(brief.text).toContain('use read_file on the files touched; change them with edit/write_file');
    expect(brief.openCommand).toBe("cd '/home/ana/projects/demo-app' && qwen");
    // The secret typed into a Qwen prompt never reaches a brief.
    const secret = await core.api.generateBrief({ session: 'qwen:ef69a653', target: 'qwen', format: 'md', redact: true });
    expect(secret.text).not.toContain('ghp_R8mZt2LwQ4vXn7KpY1sHc9DfJ3gUa6Eb0NoT');
  });

  it('reports the store in source status (what `baton doctor` prints)', async () => {
    const status = (await core.api.sourceStatus({})).find((s) => s.agent === 'qwen')!;
    expect(status).toMatchObject({ state: 'ok', sessions: expected.length, skippedLines: 0, lastError: null, roots: [path.join(fixture.home, '.qwen')] });
  });

  it('validates a Qwen store path in Settings: indexed, a copy never read, an empty folder', async () => {
    expect(await core.api.checkPath({ agent: 'qwen', path: path.join(fixture.home, '.qwen') })).toMatchObject({ exists: true, readable: true, sessions: expected.length, error: null });
    const copy = path.join(fixture.home, 'elsewhere', 'qwen-runtime');
    fs.cpSync(path.join(fixture.home, '.qwen'), copy, { recursive: true });
    expect(await core.api.checkPath({ agent: 'qwen', path: copy })).toMatchObject({ sessions: expected.length, error: null });
    const empty = path.join(fixture.home, 'no-qwen-here');
    fs.mkdirSync(empty);
    const none = await core.api.checkPath({ agent: 'qwen', path: empty });
    expect(none).toMatchObject({ exists: true, sessions: 0 });
    expect(none.error).toBe('No sessions found here (expected projects/<project>/chats/*.jsonl below this folder).');
  });
});
