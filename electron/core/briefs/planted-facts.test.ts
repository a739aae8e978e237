/**
 * The planted-facts corpus (bench/planted: a 28-turn session per agent with decisions, rejections,
 * a correction, blockers, next steps and a failing-then-passing test spread from the first to the
 * last turn) indexed by the real adapters: every planted fact must reach its section at the
 * default budget and at 2000 tokens, nothing superseded may be shown as current, and the secret
 * planted in a blocker must not leak. A regression in any extraction fails here by fact id.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSettings } from '../../../shared/settings.js';
import { openUserData, type UserData } from '../userdata/user-data.js';
import { createHandoffService, type HandoffService } from '../handoff/handoff-service.js';
import { indexedFixtureHome, type IndexedHome } from '../../../testing/briefs/indexed-home.js';
import { briefSection, copyPlantedCorpus, plantedDir, plantedSessions, readPlantedKey, scoreBrief, type PlantedKey } from '../../../testing/briefs/planted-recall.js';

const NOW = new Date('2026-11-23T12:00:00.000Z');

describe('briefs of the planted-facts sessions', () => {
  let ctx: IndexedHome;
  let userData: UserData;
  let service: HandoffService;
  let key: PlantedKey;
  let sessions: { agent: string; id: string }[];

  beforeAll(async () => {
    key = readPlantedKey();
    ctx = await indexedFixtureHome((home) => copyPlantedCorpus(home.home));
    userData = openUserData(path.join(ctx.dataDir, 'user'));
    const settings = defaultSettings();
    service = createHandoffService({ reader: ctx.index, userData, settings: () => settings, now: () => NOW });
    sessions = plantedSessions(ctx.index, key);
  });
  afterAll(() => {
    userData.close();
    ctx.close();
  });

  it('indexes each session with every user turn: generated Claude Code and Codex, and the real CLIs captured', () => {
    for (const s of key.sessions) expect(ctx.index.getSession(s.id)?.userTurns, s.id).toBe(key.userTurns);
    const captured = fs.readdirSync(path.join(plantedDir(), 'captured')).sort();
    expect(captured).toEqual(expect.arrayContaining(['claude', 'codex']));
    expect(sessions.map((s) => s.agent)).toEqual(['claude', 'codex', ...captured.map((a) => `${a}-cli`)]);
  });

  for (const budget of [undefined, 2000] as const) {
    it(`carries every planted fact at ${budget ?? 'the default'} budget, nothing stale as current, no secret`, async () => {
      for (const s of sessions) {
        const brief = await service.generateBrief({ session: s.id, target: 'claude', ...(budget ? { budget } : {}) });
        expect(brief.tokens, s.id).toBeLessThanOrEqual(brief.budget);
        const report = scoreBrief(brief.text, s.agent, key);
        expect({ session: s.id, missed: report.missed, stale: report.staleShown, secret: report.secretShown }).toEqual({
          session: s.id,
          missed: [],
          stale: [],
          secret: false,
        });
      }
    });
  }

  it('shows a correction once, as corrected, pointing at what it replaced', async () => {
    for (const s of sessions) {
      const { text } = await service.generateBrief({ session: s.id, budget: 2000 });
      const decisions = briefSection(text, 'Settled decisions');
      expect(decisions.match(/local SQLite file/g), s.id).toHaveLength(1);
      expect(decisions, s.id).toMatch(/local SQLite file[^\n]*_\(#\d+; corrects #\d+\)_/);
      expect(decisions, s.id).not.toContain('PostgreSQL because the billing app');
      // The excerpt may quote the old decision only as history.
      const excerpt = briefSection(text, 'Conversation excerpt');
      for (const line of excerpt.split('\n').filter((l) => l.includes('keep the export state in PostgreSQL because'))) {
        expect(line, s.id).toMatch(/_\[history: corrected at #\d+\]_/);
      }
    }
  });

  it('marks failed test runs that later passed as history, in Verification and the excerpt', async () => {
    for (const s of sessions) {
      const { text } = await service.generateBrief({ session: s.id, budget: 200_000 });
      expect(briefSection(text, 'Verification'), s.id).toMatch(/`npm test` — passed[^\n]*an earlier run failed at #\d+, now history/);
      const excerpt = briefSection(text, 'Conversation excerpt');
      expect(excerpt, s.id).toMatch(/\*\*Assistant\*\* \(#\d+\) _\[history: `npm test` passed later \(#\d+\)\]_: /);
      // Nothing said after the last passing run is marked.
      const lastPass = Number(/passed(?: \(exit \d+\))? _\(#(\d+)/.exec(briefSection(text, 'Verification'))![1]);
      for (const m of excerpt.matchAll(/\((#\d+)\) _\[history: `npm test`/g)) expect(Number(m[1]!.slice(1)), s.id).toBeLessThan(lastPass);
    }
    for (const s of key.sessions) {
      const excerpt = briefSection((await service.generateBrief({ session: s.id, budget: 200_000 })).text, 'Conversation excerpt');
      expect(excerpt, s.id).toMatch(/\*\*Assistant\*\* \(#\d+\) _\[history: `npm test` passed later \(#\d+\)\]_: The test fails/);
      expect(excerpt, s.id).toMatch(/_\[history: `npm test` passed later \(#\d+\)\]_: One test still fails/);
    }
  });

  it('says where the work stands: last request, latest verification, changes since it, last conclusion', async () => {
    for (const s of sessions) {
      const state = briefSection((await service.generateBrief({ session: s.id, budget: 2000 })).text, 'Current state and next steps');
      expect(state, s.id).toMatch(/- Last request \(#\d+\): Thanks, run `npm test` once more and summarize where we are\./);
      expect(state, s.id).toMatch(/- Latest verification: `npm test` passed \(#\d+; it had failed at #\d+\)/);
      expect(state, s.id).toMatch(/Last assistant conclusion \(#\d+\):\n\n> /);
    }
    for (const s of key.sessions) {
      const state = briefSection((await service.generateBrief({ session: s.id, budget: 2000 })).text, 'Current state and next steps');
      expect(state, s.id).toMatch(/Last assistant conclusion \(#\d+\):\n\n> All 6 tests pass\. The exporter streams invoices/);
    }
  });

  it('never keeps an acknowledgement while dropping the message it acknowledges', async () => {
    for (const s of sessions) {
      for (const budget of [1200, 2000, 3000]) {
        const { text } = await service.generateBrief({ session: s.id, budget });
        // Blocks of the excerpt: a gap line between would mean the acknowledged message was dropped.
        const blocks = briefSection(text, 'Conversation excerpt').trim().split('\n\n');
        blocks.forEach((block, i) => {
          if (!/^\*\*Assistant\*\*[^:]*: Okay, noted/.test(block)) return;
          let j = i - 1;
          while (j >= 0 && /^\[\d+ tool calls?:/.test(blocks[j]!)) j--; // folded tool calls of the same turn
          expect(blocks[j] ?? '', `${s.id} @${budget}: ${block}`).toMatch(/^\*\*User\*\*/);
        });
      }
    }
  });
});
