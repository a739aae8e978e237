import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentId, Message, Session } from '../../../shared/model.js';
import { openIndexForWriting, type IndexDb } from './index-db.js';
import { IndexWriter } from './index-writer.js';
import { SessionIndex } from './session-index.js';
import { bm25Score, countOccurrences, foldText } from './bm25.js';
import { FtsStats, decodeVarints } from './fts-stats.js';

const DAY = 86_400_000;

function session(agent: AgentId, native: string, over: Partial<Session> = {}): Session {
  return {
    id: `${agent}:${native}`,
    agent,
    nativeId: native,
    title: native,
    cwd: `/home/ana/projects/${native}`,
    gitBranch: 'main',
    gitCommit: null,
    model: null,
    startedAt: new Date(Date.now() - 2 * DAY).toISOString(),
    updatedAt: new Date(Date.now() - DAY).toISOString(),
    firstPrompt: null,
    userTurns: 1,
    messageCount: 0,
    toolNames: [],
    usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
    parentId: null,
    sourcePath: `/stores/${agent}/${native}.jsonl`,
    bytes: 0,
    ...over,
  };
}

function messages(s: Session, texts: string[], kind: Message['kind'] = 'text'): Message[] {
  return texts.map((text, seq) => ({
    sessionId: s.id,
    seq,
    role: 'user',
    kind,
    text,
    toolName: null,
    toolCallId: null,
    isError: false,
    timestamp: s.updatedAt,
    nativeId: null,
  }));
}

describe('MessageSearch on a real index', () => {
  let dir: string;
  let db: IndexDb;
  let writer: IndexWriter;
  let index: SessionIndex;

  function add(s: Session, texts: string[], kind: Message['kind'] = 'text'): void {
    const unit = { key: s.sourcePath, path: s.sourcePath, size: 1, mtimeMs: 1 };
    writer.apply(s.agent, unit, { sessions: [s], messages: messages(s, texts, kind), resetSessions: [], goneSessions: [], cursor: null, bytesRead: 0 });
  }

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'baton-search-'));
    db = openIndexForWriting(dir);
    writer = new IndexWriter(db);
    index = new SessionIndex(dir);
  });
  afterEach(() => {
    index.close();
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('ranks by term frequency, then by recency, and marks every term in the snippet', () => {
    // Same age: the message saying "parser" more often wins.
    add(session('claude', 'once'), ['the parser broke once', 'filler about nothing at all, quite a long sentence to change the average length']);
    add(session('claude', 'often'), ['the parser broke: parser, parser, parser', 'unrelated text']);
    const hits = index.search('parser');
    expect(hits.map((h) => h.sessionId)).toEqual(['claude:often', 'claude:once']);
    expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
    expect(hits[0]!.snippet).toContain('[[parser]]');

    // Same text in both: the recent session wins.
    add(session('codex', 'a', { updatedAt: new Date(Date.now() - 400 * DAY).toISOString() }), ['zebra crossing']);
    add(session('codex', 'b', { updatedAt: new Date().toISOString() }), ['zebra crossing']);
    expect(index.search('zebra').map((h) => h.sessionId)).toEqual(['codex:b', 'codex:a']);
  });

  it('keeps at most perSession hits per session, and reaches older sessions past a session that fills whole pages', () => {
    const older = session('claude', 'older');
    add(older, ['a note about quokkas']);
    const long = session('claude', 'long');
    add(long, Array.from({ length: 900 }, (_, i) => `quokkas sighting number ${i}`));
    const hits = index.search('quokkas', { limit: 10 });
    expect(hits.filter((h) => h.sessionId === 'claude:long')).toHaveLength(3);
    expect(hits.map((h) => h.sessionId)).toContain('claude:older');
    expect(index.search('quokkas', { perSession: 1 }).map((h) => h.sessionId).sort()).toEqual(['claude:long', 'claude:older']);
    // Within one session the cap is the limit.
    expect(index.search('quokkas', { sessionId: 'claude:long', limit: 50 })).toHaveLength(50);
    expect(index.search('quokkas', { sessionId: 'claude:nope' })).toEqual([]);
  });

  it('applies agent, project, branch, date, session and visibility filters', () => {
    add(session('claude', 'alpha', { gitBranch: 'feature/x', updatedAt: '2026-02-10T00:00:00Z', startedAt: '2026-02-01T00:00:00Z' }), ['deploy the widget']);
    add(session('codex', 'beta', { updatedAt: '2026-05-10T00:00:00Z', startedAt: '2026-05-01T00:00:00Z' }), ['deploy the widget']);
    const ids = (q: string, opts = {}) => index.search(q, opts).map((h) => h.sessionId).sort();
    expect(ids('widget agent:codex')).toEqual(['codex:beta']);
    expect(ids('widget', { agent: 'claude' })).toEqual(['claude:alpha']);
    expect(ids('widget project:ALPHA')).toEqual(['claude:alpha']);
    expect(ids('widget branch:FEATURE/X')).toEqual(['claude:alpha']);
    expect(ids('widget after:2026-03')).toEqual(['codex:beta']);
    expect(ids('widget before:2026-03')).toEqual(['claude:alpha']);
    expect(ids('widget', { sessionId: 'codex:beta' })).toEqual(['codex:beta']);
    expect(ids('widget', { visibility: { excludeCwdGlobs: ['/home/ana/projects/beta'] } })).toEqual(['claude:alpha']);
    expect(ids('widget', { visibility: { roots: { claude: ['/stores/claude'] } } })).toEqual(['claude:alpha']);
    expect(ids('widget -deploy')).toEqual([]);
    // `baton list --branch` and `baton search branch:` go through the same filter: same answer.
    const listed = (q: Parameters<SessionIndex['listSessions']>[0]) => index.listSessions(q).sessions.map((s) => s.id).sort();
    expect(listed({ branch: 'FEATURE/X' })).toEqual(ids('widget branch:FEATURE/X'));
    expect(listed({ project: 'ALPHA' })).toEqual(ids('widget project:ALPHA'));
  });

  it('finds short words as whole words, CJK substrings, camelCase parts and prefixes, with other filters', () => {
    const s = session('claude', 'shell', { updatedAt: new Date().toISOString() });
    add(s, ['run ls -la in the repo', 'also this is not it, else', '日本語のテキスト', 'the SessionIndex class and parse_config_file']);
    add(session('codex', 'other'), ['LS again, uppercase']);
    expect(index.search('ls').map((h) => `${h.sessionId}#${h.seq}`).sort()).toEqual(['claude:shell#0', 'codex:other#0']); // not "else"
    expect(index.search('ls agent:codex').map((h) => h.sessionId)).toEqual(['codex:other']);
    expect(index.search('日本')[0]!.snippet).toContain('[[日本]]');
    expect(index.search('語のテ').map((h) => h.seq)).toEqual([2]);
    expect(index.search('のの')).toEqual([]); // characters in order, not just present
    expect(index.search('ls repo').map((h) => h.seq)).toEqual([0]);
    expect(index.search('ls', { sessionId: 'codex:other' }).map((h) => h.sessionId)).toEqual(['codex:other']);
    expect(index.search('Index').map((h) => h.seq)).toEqual([3]);
    expect(index.search('Index')[0]!.snippet).toContain('Session[[Index]]');
    expect(index.search('sessionindex').map((h) => h.seq)).toEqual([3]);
    expect(index.search('config').map((h) => h.seq)).toEqual([3]);
    expect(index.search('"config file"').map((h) => h.seq)).toEqual([3]);
    expect(index.search('Sess*').map((h) => h.seq)).toEqual([3]);
    expect(index.search('-- +')).toEqual([]);
  });

  it('leaves thinking out and never throws on hostile input', () => {
    add(session('claude', 'think'), ['secret plan about walruses'], 'thinking');
    expect(index.search('walruses')).toEqual([]);
    for (const q of ['"unbalanced', 'NEAR(git', '*', '-', '"', 'AND OR NOT', '(((', "'; DROP TABLE x", '%_\\', '[*?]']) {
      expect(() => index.search(q), q).not.toThrow();
    }
  });

  it('reads the FTS totals from the averages record', () => {
    add(session('claude', 'x'), ['one two three', 'one two three four five']);
    const totals = new FtsStats(db).totals();
    expect(totals.docs).toBe(db.prepare('SELECT count(*) FROM message_fts_docsize').pluck().get());
    expect(totals.docs).toBe(2);
    expect(totals.avgDocLength).toBe((3 + 5) / 2); // words per message
  });
});

describe('bm25 helpers', () => {
  it('folds case and diacritics like the index, and counts overlapping phrase instances', () => {
    expect(foldText('Crème BRÛLÉE')).toBe('creme brulee');
    expect(countOccurrences('aaaa', 'aaa')).toBe(2);
    expect(countOccurrences('abc', '')).toBe(0);
    expect(foldText('ÀB 日本 Ñ')).toBe('ab 日本 n');
  });

  it('grows with term frequency, saturates, and prefers shorter texts', () => {
    const p = [{ folded: 'cat', idf: 1 }];
    const one = bm25Score('cat sat', 2, p, 10);
    const two = bm25Score('cat cat', 2, p, 10);
    expect(two).toBeGreaterThan(one);
    expect(bm25Score('cat '.repeat(100), 100, p, 10)).toBeLessThan(2.2 * 1.0001);
    expect(bm25Score(`cat ${'x '.repeat(200)}`, 201, p, 10)).toBeLessThan(one);
    expect(bm25Score('dog', 1, p, 10)).toBe(0);
  });

  it('decodes SQLite varints, including the 9-byte form', () => {
    expect(decodeVarints(Uint8Array.from([0x05, 0x81, 0x00, 0xab, 0xf0, 0x41]))).toEqual([5, 128, 718913]);
    expect(decodeVarints(Uint8Array.from([0x81, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01]))).toEqual([2 ** 57 + 1]); // 2^49 from the first eight bytes, then ×256 + 1
  });
});
