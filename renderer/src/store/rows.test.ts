import { describe, expect, it } from 'vitest';
import type { SearchHit, SessionSummary } from '../../../shared/api-types.js';
import { rowFromSession, rowsFromHits, rowsFromSessions, rowTitle } from './rows.js';
import { makeSession } from '../../../testing/renderer/store-test-data.js';

const hit = (sessionId: string, snippet: string, over: Partial<SearchHit> = {}): SearchHit => ({
  sessionId,
  agent: sessionId.split(':')[0] as SearchHit['agent'],
  nativeId: sessionId.split(':')[1] ?? '',
  title: null,
  cwd: '/home/ana/projects/demo-app',
  seq: 1,
  role: 'user',
  snippet,
  timestamp: '2026-11-22T03:00:00Z',
  score: 1,
  ...over,
});

describe('rowsFromHits', () => {
  const known = new Map<string, SessionSummary>([['claude:a', makeSession('claude:a', { firstPrompt: 'Run git log' })]]);

  it('groups hits per session in rank order, keeping the best snippet and counting matches', () => {
    const rows = rowsFromHits([hit('codex:b', '[[git]] one'), hit('claude:a', 'best [[git]]'), hit('codex:b', 'second'), hit('claude:a', 'x')], known);
    expect(rows.map((r) => [r.id, r.snippet, r.matches])).toEqual([
      ['codex:b', '[[git]] one', 2],
      ['claude:a', 'best [[git]]', 2],
    ]);
  });

  it('joins what the list knows and falls back to the hit for the rest', () => {
    const [unknown, knownRow] = rowsFromHits([hit('codex:b', 's', { title: 'Hit title' }), hit('claude:a', 's')], known);
    expect(unknown).toMatchObject({ title: 'Hit title', firstPrompt: null, messageCount: null });
    expect(knownRow).toMatchObject({ firstPrompt: 'Run git log', messageCount: 4, gitBranch: 'main' });
  });

  it('applies the agent and project filters', () => {
    const hits = [hit('codex:b', 's', { cwd: '/home/ana/scratch' }), hit('claude:a', 's')];
    expect(rowsFromHits(hits, known, { agent: 'claude' }).map((r) => r.id)).toEqual(['claude:a']);
    expect(rowsFromHits(hits, known, { project: 'scratch' }).map((r) => r.id)).toEqual(['codex:b']);
  });
});

describe('rowTitle', () => {
  it('prefers the title, then the first prompt on one line, then the id', () => {
    expect(rowTitle({ id: 'x', title: 'T', firstPrompt: 'P' })).toBe('T');
    expect(rowTitle({ id: 'x', title: '  ', firstPrompt: 'Please\n  read   it' })).toBe('Please read it');
    expect(rowTitle({ id: 'x', title: null, firstPrompt: null })).toBe('x');
  });

  it('uses updatedAt, falling back to startedAt', () => {
    expect(rowFromSession(makeSession('claude:z', { updatedAt: null, startedAt: '2026-01-01T00:00:00Z' })).updatedAt).toBe('2026-01-01T00:00:00Z');
  });
});

describe('rowsFromSessions (the popover list without a search)', () => {
  it('lists subagents under their parent, indented and marked, and marks one whose parent is not listed', () => {
    const rows = rowsFromSessions([
      makeSession('claude:sub', { parentId: 'claude:main' }),
      makeSession('codex:other'),
      makeSession('claude:main'),
      makeSession('pi:fork', { parentId: 'pi:elsewhere' }),
    ]);
    expect(rows.map((r) => [r.id, r.depth, r.subagent])).toEqual([
      ['codex:other', 0, false],
      ['claude:main', 0, false],
      ['claude:sub', 1, true],
      ['pi:fork', 0, true],
    ]);
  });
});
