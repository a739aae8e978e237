// Gemini CLI through everything Baton does, on the real fixture store: list, search with
// `agent:gemini`, a brief for Gemini CLI, "Open in" Gemini, Settings path validation and the
// store status `baton doctor` prints.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBatonCore, type BatonCore } from './service.js';
import { expectedSessions, makeFixtureHome, makeTempDir, type FixtureHome } from '../../testing/fixture-home.js';

const RESUMED = 'gemini:6e235986-c831-45ba-a9f7-faaec6013a42';

describe('Gemini CLI sessions through the API', () => {
  let fixture: FixtureHome;
  let core: BatonCore;

  beforeAll(async () => {
    fixture = makeFixtureHome();
    core = await createBatonCore({
      environment: { env: fixture.env, platform: process.platform, home: fixture.home },
      dataDir: String(fixture.env.BATON_HOME),
      ingest: 'inline',
      watch: false,
      log: () => {},
    });
    await core.start();
    await core.whenCurrent();
  });
  afterAll(async () => {
    await core.close();
    fixture.cleanup();
  });

  it('lists exactly the expected Gemini sessions with agent:gemini', async () => {
    const expected = expectedSessions().filter((e) => e.agent === 'gemini');
    const page = await core.api.listSessions({ agent: 'gemini', limit: 1000, offset: 0 });
    expect(page.total).toBe(expected.length);
    for (const want of expected) {
      const got = page.sessions.find((s) => s.id === `gemini:${want.id}`);
      expect(got, want.id).toMatchObject({ agent: 'gemini', cwd: want.cwd, gitBranch: null, firstPrompt: want.firstPrompt, userTurns: want.userTurns, title: want.title });
    }
  });

  it('searches Gemini transcripts with the agent filter, tool output included', async () => {
    const hits = await core.api.search({ query: 'agent:gemini coffee', limit: 50 });
    expect(hits.length).toBeGreaterThan(0);
    expect(new Set(hits.map((h) => h.agent))).toEqual(new Set(['gemini']));
    expect(new Set(hits.map((h) => h.cwd))).toEqual(new Set(['/home/ana/scratch']));
    // The other agents' stores hold the same todo.txt: without the filter they are found too.
    const all = await core.api.search({ query: 'coffee', limit: 50 });
    expect(new Set(all.map((h) => h.agent)).size).toBeGreaterThan(1);
  });

  it('renders a brief for Gemini CLI: its tool names, the files it wrote, the command that opens it', async () => {
    const brief = await core.api.generateBrief({ session: RESUMED, target: 'gemini', format: 'md', redact: true });
    expect(brief.text).toContain('Run `ls -la` and give me a quick overview of the files here.');
    expect(brief.text).toContain('## Instructions for Gemini CLI');
    expect(brief.text).toContain('use read_file on the files touched; change them with replace/write_file');
    expect(brief.text).toContain('NOTES.md');
    expect(brief.text).not.toContain('<session_context>');
    expect(brief.openCommand).toBe(`cd '/home/ana/projects/demo-app' && gemini`);
  });

  it('redacts the token a Gemini prompt carried (the prompt is kept, the secret is not)', async () => {
    const brief = await core.api.generateBrief({ session: 'gemini:bf0b9e4b', target: 'gemini', format: 'md', redact: true });
    expect(brief.text).toContain('run `git remote -v`');
    expect(brief.text).not.toContain('ghp_R8mZt2LwQ4vXn7KpY1sHc9DfJ3gUa6Eb0NoT');
  });

  it('validates a Gemini store path in Settings: indexed root, an unread copy, an empty folder', async () => {
    const root = path.join(fixture.home, '.gemini');
    expect(await core.api.checkPath({ agent: 'gemini', path: root })).toMatchObject({ exists: true, readable: true, sessions: 8, error: null });
    const tmp = makeTempDir('baton-gemini-path-');
    try {
      fs.cpSync(path.join(root, 'tmp', 'scratch'), path.join(tmp.dir, 'copy', 'tmp', 'scratch'), { recursive: true });
      expect(await core.api.checkPath({ agent: 'gemini', path: path.join(tmp.dir, 'copy') })).toMatchObject({ sessions: 3, error: null });
      fs.mkdirSync(path.join(tmp.dir, 'empty'));
      const empty = await core.api.checkPath({ agent: 'gemini', path: path.join(tmp.dir, 'empty') });
      expect(empty).toMatchObject({ sessions: 0 });
      expect(empty.error).toMatch(/tmp\/<project>\/chats\/session-\*\.jsonl/);
    } finally {
      tmp.cleanup();
    }
  });

  it('reports the Gemini store in the source status (what `baton doctor` prints)', async () => {
    const gemini = (await core.api.sourceStatus({})).find((s) => s.agent === 'gemini');
    expect(gemini).toMatchObject({ state: 'ok', roots: [path.join(fixture.home, '.gemini')], sessions: 8, skippedLines: 0, lastError: null });
  });

  it('opens a Gemini session in Gemini CLI with the brief as its interactive first prompt', async () => {
    const result = await core.api.openInAgent({ session: RESUMED, target: 'gemini' });
    // The recorded cwd does not exist on this machine: the command starts from the home folder.
    expect(result.command).toMatch(/^cd '.+' && gemini -i "\$\(cat '.+\.md'\)"$/);
  });
});
