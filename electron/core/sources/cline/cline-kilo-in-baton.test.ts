// Cline and Kilo Code as agents of Baton, end to end over the real fixture stores: real adapters →
// real index.db → the API every surface (UI, IPC, HTTP, MCP, CLI) goes through.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BatonCore } from '../../service.js';
import { startFixtureCore } from '../../../../testing/fixture-core.js';
import { expectedSessions, makeFixtureHome, type FixtureHome } from '../../../../testing/fixture-home.js';

const SECRET = 'ghp_R8mZt2LwQ4vXn7KpY1sHc9DfJ3gUa6Eb0NoT';

describe('Cline and Kilo Code sessions in Baton', () => {
  let fixture: FixtureHome;
  let core: BatonCore;

  beforeAll(async () => {
    fixture = makeFixtureHome();
    core = await startFixtureCore(fixture);
  });
  afterAll(async () => {
    await core.close();
    fixture.cleanup();
  });

  it.each(['cline', 'kilo'] as const)('%s: lists them with the agent filter, as the ground truth says', async (agent) => {
    const expected = expectedSessions().filter((s) => s.agent === agent);
    const page = await core.api.listSessions({ agent, limit: 100, offset: 0 });
    expect(page.total).toBe(expected.length);
    for (const want of expected) {
      expect(page.sessions.find((s) => s.id === `${agent}:${want.id}`)).toMatchObject({ agent, cwd: want.cwd, gitBranch: want.gitBranch, firstPrompt: want.firstPrompt, userTurns: want.userTurns });
    }
  });

  it.each(['cline', 'kilo'] as const)('%s: finds their text with an agent: filter, and only theirs', async (agent) => {
    const hits = await core.api.search({ query: `agent:${agent} 買い物リスト`, limit: 50 });
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.every((h) => h.agent === agent)).toBe(true);
  });

  it('renders a Cline session as a brief: unwrapped goal, its shell commands and files, redacted', async () => {
    const brief = await core.api.generateBrief({ session: 'cline:1795751442326_virap', target: 'kilo', format: 'md', redact: true });
    expect(brief.text).toContain('Agent: Cline');
    expect(brief.text).toContain('Run `ls -la` and give me a quick overview of the files here.');
    expect(brief.text).not.toContain('<user_input');
    expect(brief.text).toMatch(/`NOTES\.md` — written \(editor, #\d+\)/);
    // Kilo Code as the target: its tool vocabulary and the command that opens it.
    expect(brief.text).toContain('## Instructions for Kilo Code');
    expect(brief.openCommand).toBe("cd '/home/ana/projects/demo-app' && kilo");
    const secret = await core.api.generateBrief({ session: 'cline:1795751634263_u1y3w', target: 'cline', format: 'md', redact: true });
    expect(secret.text).not.toContain(SECRET);
    expect(secret.text).toContain('## Instructions for Cline');
    const toCline = await core.api.generateBrief({ session: 'cline:1795751442326_virap', target: 'cline', format: 'md', redact: true });
    expect(toCline.text).toContain('use read_files on the files touched; change them with the editor tool');
  });

  it('renders a Kilo session as a brief with what it wrote', async () => {
    const brief = await core.api.generateBrief({ session: 'kilo:ses_de4ef1168ffeIbshF7QgvctV3Y', target: 'cline', format: 'md', redact: true });
    expect(brief.text).toContain('Agent: Kilo Code');
    expect(brief.text).toMatch(/`[^`]*NOTES\.md` — written \(write, #\d+\)/);
    expect(brief.openCommand).toBe("cd '/home/ana/projects/demo-app' && cline");
  });

  it.each([
    ['cline', ['.cline', 'data']],
    ['kilo', ['.local', 'share', 'kilo']],
  ] as const)('%s: reports the store in source status (what `baton doctor` prints)', async (agent, root) => {
    const status = (await core.api.sourceStatus({})).find((s) => s.agent === agent)!;
    expect(status).toMatchObject({ state: 'ok', sessions: expectedSessions().filter((s) => s.agent === agent).length, lastError: null, roots: [path.join(fixture.home, ...root)] });
  });

  it.each(['cline', 'kilo'] as const)('%s: validates its store path in Settings', async (agent) => {
    const root = agent === 'cline' ? path.join(fixture.home, '.cline', 'data') : path.join(fixture.home, '.local', 'share', 'kilo');
    const n = expectedSessions().filter((s) => s.agent === agent).length;
    expect(await core.api.checkPath({ agent, path: root })).toMatchObject({ exists: true, readable: true, sessions: n, error: null });
  });
});
