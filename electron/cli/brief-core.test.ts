/**
 * The lean core a one-shot `baton brief` opens (brief-core.ts) answers as the full core does: the
 * same `--last` (hidden projects left out), the same brief text for a session with a checkpoint
 * whose folder drifted since (git loaded only for that). Real SQLite files, a real git work tree.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeFixtureHome, type FixtureHome } from '../../testing/fixture-home.js';
import { writeClaudeTranscript } from '../../testing/briefs/claude-transcript.js';
import { createBatonCore } from '../core/service.js';
import type { Environment } from '../core/paths.js';
import { openBriefCore } from './brief-core.js';
import { lastSessionId } from './commands/handoff-cli.js';

const WORKED = '4b1ef000-0000-4000-8000-000000000001';
const HIDDEN = 'c0de0000-0000-4000-8000-000000000002';
let home: FixtureHome;
let environment: Environment;
let repo: string;

beforeAll(() => {
  home = makeFixtureHome();
  environment = { env: home.env, platform: process.platform, home: home.home };
  repo = path.join(home.home, 'work', 'lean-brief');
  fs.mkdirSync(repo, { recursive: true });
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: repo });
  git('init', '-q', '-b', 'main');
  fs.writeFileSync(path.join(repo, 'parser.ts'), 'export const a = 1;\n');
  git('add', '.');
  git('commit', '-qm', 'first');
  // Newer than every fixture session; the hidden one newer still, in an excluded project.
  writeClaudeTranscript({
    home: home.home,
    sessionId: WORKED,
    cwd: repo,
    start: new Date('2030-01-01T09:00:00Z'),
    turns: [
      { role: 'user', text: 'Rewrite the parser with a lookup table' },
      { role: 'assistant', text: 'Decision: use a lookup table keyed by token kind.' },
    ],
  });
  writeClaudeTranscript({ home: home.home, sessionId: HIDDEN, cwd: path.join(home.home, 'secret-project'), start: new Date('2030-02-01T09:00:00Z'), turns: [{ role: 'user', text: 'Not to be listed' }] });
});
afterAll(() => home.cleanup());

describe('the lean brief core', () => {
  it('picks the same --last and writes the same brief as the full core, drift included', async () => {
    const full = await createBatonCore({ environment, ingest: 'inline', watch: false, log: () => {} });
    let expected: string;
    let fullLast: string;
    try {
      await full.start();
      await full.whenCurrent();
      full.settings.update({ excludedProjects: ['~/secret-project'] });
      await full.handoff.createCheckpoint({ summary: 'Parser half done', nextSteps: ['Finish the table'] }, `claude:${WORKED}`);
      // The folder moves on after the checkpoint: the brief reports it (git drift).
      fs.writeFileSync(path.join(repo, 'parser.ts'), 'export const a = 2;\n');
      fullLast = await lastSessionId(full.api, undefined);
      expected = (await full.api.generateBrief({ session: fullLast, format: 'md', redact: true })).text;
    } finally {
      await full.close();
    }
    expect(fullLast).toBe(`claude:${WORKED}`);
    expect(expected).toContain('Parser half done');
    expect(expected).toContain('parser.ts');

    const lean = await openBriefCore({ environment });
    try {
      const last = await lastSessionId(lean.sessions, undefined);
      expect(last).toBe(fullLast);
      const brief = await lean.handoff.generateBrief({ session: last, format: 'md' });
      expect(brief.text).toBe(expected);
      // A reference resolves as the core resolves it (an id prefix here).
      expect((await lean.handoff.generateBrief({ session: WORKED.slice(0, 13), format: 'md' })).sessionId).toBe(`claude:${WORKED}`);
    } finally {
      await lean.close();
    }
  }, 120_000);

  it('--last --cwd into an excluded project finds nothing (not the hidden session)', async () => {
    const lean = await openBriefCore({ environment });
    try {
      // The setting saved above hides it; a list filtered to its folder finds nothing, not the hidden one.
      await expect(lastSessionId(lean.sessions, path.join(home.home, 'secret-project'))).rejects.toThrow('No session ran in');
    } finally {
      await lean.close();
    }
  }, 60_000);
});
