/**
 * Test support: an agent as a first-class agent of Baton, end to end over the real fixture store
 * (real adapter → real index.db → the API every surface goes through): listed as the ground truth
 * says, found by `agent:` search, briefed as a source and as a target, its store in source status
 * and its Settings path checked. One table row per agent instead of one copied file per agent.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_LABELS, type AgentId } from '../shared/model.js';
import type { BatonCore } from '../electron/core/service.js';
import { startFixtureCore } from './fixture-core.js';
import { expectedSessions, makeFixtureHome, type FixtureHome } from './fixture-home.js';

export interface AgentInBaton {
  agent: AgentId;
  /** The store folder under the fixture home (`.copilot`, `.factory`, …). */
  store: string;
  /** Whether expected.json's gitBranch is what the agent records (not every agent stores one). */
  branch: boolean;
  search: { query: string; finds: string };
  brief: { session: string; fileLine: RegExp; vocabulary: string; command: string; secretSession: string };
  /** What checkPath says of a folder with no sessions of this agent. */
  emptyPathError: string;
}

const FAKE_TOKEN = 'ghp_R8mZt2LwQ4vXn7KpY1sHc9DfJ3gUa6Eb0NoT';

export function describeAgentInBaton(c: AgentInBaton, more?: (ctx: () => { core: BatonCore; fixture: FixtureHome }) => void): void {
  describe(`${AGENT_LABELS[c.agent]} sessions in Baton`, () => {
    let fixture: FixtureHome;
    let core: BatonCore;
    const expected = expectedSessions().filter((s) => s.agent === c.agent);

    beforeAll(async () => {
      fixture = makeFixtureHome();
      core = await startFixtureCore(fixture);
    });
    afterAll(async () => {
      await core.close();
      fixture.cleanup();
    });

    it('lists them with the agent filter, as the ground truth says', async () => {
      expect(expected.length).toBeGreaterThan(0);
      const page = await core.api.listSessions({ agent: c.agent, limit: 100, offset: 0 });
      expect(page.total).toBe(expected.length);
      for (const want of expected) {
        expect(page.sessions.find((s) => s.id === `${c.agent}:${want.id}`)).toMatchObject({
          agent: c.agent, cwd: want.cwd, firstPrompt: want.firstPrompt, userTurns: want.userTurns, title: want.title, ...(c.branch ? { gitBranch: want.gitBranch } : {}),
        });
      }
    });

    it(`finds their text with \`agent:${c.agent}\`, and only theirs`, async () => {
      const hits = await core.api.search({ query: `agent:${c.agent} ${c.search.query}`, limit: 50 });
      expect(hits.map((h) => h.sessionId)).toContain(c.search.finds);
      expect(hits.every((h) => h.agent === c.agent)).toBe(true);
    });

    it('briefs a session in its own tool vocabulary, with the file it wrote and the command to open it; secrets masked', async () => {
      const brief = await core.api.generateBrief({ session: c.brief.session, target: c.agent, format: 'md', redact: true });
      expect(brief.text).toContain('Run `ls -la` and give me a quick overview of the files here.');
      expect(brief.text).toMatch(c.brief.fileLine);
      expect(brief.text).toContain(`## Instructions for ${AGENT_LABELS[c.agent]}`);
      expect(brief.text).toContain(c.brief.vocabulary);
      expect(brief.openCommand).toBe(`cd '/home/ana/projects/demo-app' && ${c.brief.command}`);
      const secret = await core.api.generateBrief({ session: c.brief.secretSession, target: 'generic', format: 'md', redact: true });
      expect(secret.text).not.toContain(FAKE_TOKEN);
    });

    it('reports the store in source status and validates its Settings path', async () => {
      const root = path.join(fixture.home, c.store);
      const status = (await core.api.sourceStatus({})).find((s) => s.agent === c.agent)!;
      expect(status).toMatchObject({ state: 'ok', sessions: expected.length, skippedLines: 0, lastError: null, roots: [root] });
      expect(await core.api.checkPath({ agent: c.agent, path: root })).toMatchObject({ exists: true, readable: true, sessions: expected.length, error: null });
      const empty = path.join(fixture.home, `no-${c.agent}-here`);
      fs.mkdirSync(empty);
      expect((await core.api.checkPath({ agent: c.agent, path: empty })).error).toBe(c.emptyPathError);
    });

    more?.(() => ({ core, fixture }));
  });
}
