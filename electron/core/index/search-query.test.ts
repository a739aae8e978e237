import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { parseSearchQuery, toFtsMatch } from './search-query.js';

describe('parseSearchQuery', () => {
  it('reads words, phrases, prefixes, exclusions and filters', () => {
    const q = parseSearchQuery('login "token refresh" auth* -flaky agent:codex project:"demo app" branch:main after:2026-01 before:2026-11-22');
    expect(q.terms.map((t) => [t.text, t.prefix, t.negated])).toEqual([
      ['login', false, false],
      ['token refresh', false, false],
      ['auth', true, false],
      ['flaky', false, true],
    ]);
    expect(q.filters).toEqual({
      agent: 'codex',
      project: 'demo app',
      branch: 'main',
      after: '2026-01-01T00:00:00.000Z',
      before: '2026-11-22T00:00:00.000Z',
    });
    expect(toFtsMatch(q)).toBe('("login" AND "token refresh" AND "auth") NOT "flaky"');
  });

  it('treats unknown keys, bad dates and bad agents as text or ignores them', () => {
    const q = parseSearchQuery('foo:bar after:yesterday agent:nobody');
    expect(q.terms.map((t) => t.text)).toEqual(['foo:bar', 'after:yesterday', 'agent:nobody']);
    expect(q.filters).toEqual({});
  });

  it('marks terms shorter than a trigram (CJK words included) as short', () => {
    const q = parseSearchQuery('go 日本 検索する');
    expect(q.terms.map((t) => [t.text, t.short])).toEqual([
      ['go', true],
      ['日本', true],
      ['検索する', false],
    ]);
    expect(toFtsMatch(q)).toBe('"検索する"');
    expect(toFtsMatch(parseSearchQuery('go ai'))).toBeNull();
  });

  it('reads `-xx` (shorter than a trigram) as text, so `ls -la` means the flag', () => {
    expect(parseSearchQuery('ls -la').terms.map((t) => [t.text, t.negated, t.short])).toEqual([
      ['ls', false, true],
      ['-la', false, false],
    ]);
  });

  it('searches for the literal text when everything is excluded', () => {
    expect(parseSearchQuery('-rf').terms).toEqual([{ text: '-rf', prefix: false, negated: false, short: false }]);
  });

  it('never produces an FTS expression SQLite rejects (fuzz)', () => {
    const db = new Database(':memory:');
    db.exec("CREATE VIRTUAL TABLE f USING fts5(body, tokenize='trigram')");
    db.prepare('INSERT INTO f (body) VALUES (?)').run('the quick brown fox "jumps" over NEAR(the) lazy dog * - : 日本語');
    const stmt = db.prepare('SELECT count(*) FROM f WHERE f MATCH ?');
    const alphabet = ['"', '*', '-', ':', '(', ')', 'NEAR', 'AND', 'OR', 'NOT', '^', '+', ' ', 'fox', 'ju', '日本語', 'agent:', 'after:', '\\', "'", '{', '}', 'col', '\u0000'];
    let seed = 42;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    for (let i = 0; i < 3000; i++) {
      let text = '';
      const len = 1 + rand(8);
      for (let j = 0; j < len; j++) text += alphabet[rand(alphabet.length)];
      const match = toFtsMatch(parseSearchQuery(text));
      if (match !== null) expect(() => stmt.get(match), `${JSON.stringify(text)} → ${match}`).not.toThrow();
    }
    db.close();
  });
});
