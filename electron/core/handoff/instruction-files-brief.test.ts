import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSettings } from '../../../shared/settings.js';
import { openUserData, type UserData } from '../userdata/user-data.js';
import { createHandoffService, type HandoffService } from './handoff-service.js';
import { indexedFixtureHome, type IndexedHome } from '../../../testing/briefs/indexed-home.js';
import { writeClaudeTranscript } from '../../../testing/briefs/claude-transcript.js';
import { findInstructionFiles, loadedBy } from '../briefs/instruction-files.js';

const NOW = new Date('2026-11-22T12:00:00.000Z');
const SESSION = 'dddddddd-1111-4222-8333-444444444444';

function instructions(text: string): string {
  const start = text.indexOf('## Instructions for');
  return start < 0 ? '' : text.slice(start);
}

describe('project instruction files in a brief', () => {
  let ctx: IndexedHome;
  let userData: UserData;
  let service: HandoffService;
  let repo: string;
  let sub: string;

  beforeAll(async () => {
    ctx = await indexedFixtureHome((home) => {
      repo = path.join(path.dirname(home.home), 'work', 'rules-app');
      sub = path.join(repo, 'packages', 'api');
      fs.mkdirSync(sub, { recursive: true });
      execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: repo });
      // The repository root holds Claude Code's and the cross-agent files; the session ran in a package.
      fs.writeFileSync(path.join(repo, 'CLAUDE.md'), 'Use pnpm, never npm.\n');
      fs.writeFileSync(path.join(repo, 'AGENTS.md'), 'Run the linter before committing.\n');
      writeClaudeTranscript({
        home: home.home,
        sessionId: SESSION,
        cwd: sub,
        gitBranch: 'main',
        turns: [
          { role: 'user', text: 'Add a health route to the api package.' },
          { role: 'assistant', text: 'Added GET /health.' },
        ],
      });
    });
    userData = openUserData(path.join(ctx.dataDir, 'user'));
    service = createHandoffService({ reader: ctx.index, userData, settings: defaultSettings, now: () => NOW });
  });
  afterAll(() => {
    userData.close();
    ctx.close();
  });

  it('finds the files in the project and at the repository root above it', () => {
    expect(findInstructionFiles(sub).sort()).toEqual(['AGENTS.md', 'CLAUDE.md']);
    expect(findInstructionFiles(path.join(repo, 'missing'))).toEqual([]);
    expect(findInstructionFiles(null)).toEqual([]);
  });

  it('loads the first of a group of alternatives, every group', () => {
    // pi and OpenCode take AGENTS.md and skip CLAUDE.md; Copilot CLI reads both; Gemini neither.
    expect(loadedBy('pi', ['CLAUDE.md', 'AGENTS.md'])).toEqual(['AGENTS.md']);
    expect(loadedBy('opencode', ['CLAUDE.md'])).toEqual(['CLAUDE.md']);
    expect(loadedBy('copilot', ['CLAUDE.md', 'AGENTS.md'])).toEqual(['AGENTS.md', 'CLAUDE.md']);
    expect(loadedBy('gemini', ['CLAUDE.md', 'AGENTS.md'])).toEqual([]);
  });

  it("tells a target that does not load the source's file to read it, and names what it loads", async () => {
    const codex = instructions((await service.generateBrief({ session: `claude:${SESSION}`, target: 'codex' })).text);
    expect(codex).toContain('Read `CLAUDE.md` first: Claude Code followed it as project instructions in this session, and Codex CLI does not load it by itself.');
    expect(codex).toContain('Codex CLI loads `AGENTS.md` here by itself.');

    const gemini = instructions((await service.generateBrief({ session: `claude:${SESSION}`, target: 'gemini' })).text);
    expect(gemini).toContain('Read `CLAUDE.md` first');
    expect(gemini).not.toContain('loads `');
  });

  it('says nothing to read when the target loads the same file itself', async () => {
    const copilot = instructions((await service.generateBrief({ session: `claude:${SESSION}`, target: 'copilot' })).text);
    expect(copilot).not.toContain('Read `CLAUDE.md`');
    expect(copilot).toContain('GitHub Copilot CLI loads `AGENTS.md`, `CLAUDE.md` here by itself.');
  });

  it('points any agent at the files the source followed', async () => {
    const generic = instructions((await service.generateBrief({ session: `claude:${SESSION}`, target: 'generic' })).text);
    expect(generic).toContain("Read the project's instruction files first: `CLAUDE.md` (Claude Code followed it in this session).");
  });
});
