/**
 * pi sessions through the real index: list and `agent:pi` search, abandoned branches found but
 * marked, briefs (`--target pi`) that follow the current path and carry pi's compaction summary.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSettings } from '../../../../shared/settings.js';
import { expectedSessions } from '../../../../testing/fixture-home.js';
import { openUserData, type UserData } from '../../userdata/user-data.js';
import { createHandoffService, type HandoffService } from '../../handoff/handoff-service.js';
import { indexedFixtureHome, type IndexedHome } from '../../../../testing/briefs/indexed-home.js';

const BRANCHED = 'pi:01a20eb0-2de1-73b9-b24a-d1eec965782e';
const COMPACTED = 'pi:01a20eaf-9091-708d-8e1b-4215635def39';
const WROTE = 'pi:01a20eae-bf33-7005-b046-0279e3d529c7';
const NOW = new Date('2026-11-25T12:00:00.000Z');

function section(text: string, heading: string): string {
  const start = text.indexOf(`## ${heading}`);
  if (start < 0) return '';
  const rest = text.slice(start + heading.length + 3);
  const end = rest.search(/^## /m);
  return end >= 0 ? rest.slice(0, end) : rest;
}

describe('pi sessions in the index, search and briefs', () => {
  let ctx: IndexedHome;
  let userData: UserData;
  let service: HandoffService;
  beforeAll(async () => {
    ctx = await indexedFixtureHome();
    userData = openUserData(path.join(ctx.dataDir, 'user'));
    service = createHandoffService({ reader: ctx.index, userData, settings: () => defaultSettings(), now: () => NOW });
  });
  afterAll(() => {
    userData.close();
    ctx.close();
  });

  it('lists every pi session with its current-path counts', () => {
    const { sessions, total } = ctx.index.listSessions({ agent: 'pi', limit: 100 });
    const expected = expectedSessions().filter((e) => (e.agent as string) === 'pi');
    expect(total).toBe(expected.length);
    for (const e of expected) {
      const s = sessions.find((x) => x.id === `pi:${e.id}`)!;
      expect([s.firstPrompt, s.userTurns, s.title]).toEqual([e.firstPrompt, e.userTurns, e.title]);
    }
    expect(ctx.index.getSession(BRANCHED)!.otherBranchSeqs!.length).toBe(1);
  });

  it('agent:pi search finds the abandoned branch, marked as another branch', () => {
    const abandoned = ctx.index.search('agent:pi "src/app.js" explain');
    const hit = abandoned.find((h) => h.sessionId === BRANCHED)!;
    expect(hit).toMatchObject({ agent: 'pi', otherBranch: true });
    const current = ctx.index.search('agent:pi "app version"').find((h) => h.sessionId === BRANCHED)!;
    expect(current.otherBranch).toBeUndefined();
    expect(ctx.index.search('agent:pi "app version"').every((h) => h.agent === 'pi')).toBe(true);
  });

  it('currentBranch queries skip the abandoned branch; plain ones keep the whole transcript', () => {
    const all = ctx.index.getMessages(BRANCHED, { roles: ['user'] }).map((m) => m.text);
    const current = ctx.index.getMessages(BRANCHED, { roles: ['user'], currentBranch: true }).map((m) => m.text);
    expect(all).toHaveLength(3);
    expect(current).toEqual(['Run `git branch` and tell me which branches exist.', 'Actually, read `package.json` instead and tell me the app version.']);
    expect(ctx.index.countMessages(BRANCHED, { currentBranch: true })).toBe(ctx.index.countMessages(BRANCHED) - 7);
  });

  it('a brief for pi follows the current path and speaks pi’s tools', async () => {
    const brief = await service.generateBrief({ session: BRANCHED, target: 'pi' });
    const excerpt = section(brief.text, 'Conversation excerpt');
    expect(excerpt).toContain('Actually, read `package.json`');
    expect(excerpt).not.toContain('Please read `src/app.js`');
    expect(section(brief.text, 'Instructions for pi')).toBeTruthy();
    expect(brief.text).toContain('- Branches: this brief follows the current conversation; 7 messages on abandoned branches left out');
    const fork = await service.generateBrief({ session: 'pi:01a20eb0-ed27-774c-bfba-4536f30b8477', target: 'pi' });
    expect(fork.text).toContain('- Forked from: session `pi:01a20eae-b8dd-7715-8f92-53b34506f09f`');
    // pi's write tool ({path, content}) shows as a file change, and the instructions name pi's tools.
    const wrote = await service.generateBrief({ session: WROTE, target: 'pi' });
    expect(section(wrote.text, 'Files touched')).toContain('NOTES.md');
    expect(wrote.text).toContain('use the read tool on the files touched; change them with the edit/write tools');
  });

  it('a brief of a compacted pi session carries pi’s own summary', async () => {
    const brief = await service.generateBrief({ session: COMPACTED, target: 'pi' });
    const state = section(brief.text, 'Current state and next steps');
    expect(state).toContain("the agent's own summary when it compacted");
    expect(state).toContain('> ## Goal');
  });
});
