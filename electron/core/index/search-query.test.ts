import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { parseSearchQuery, toFtsMatch } from './search-query.js';
import { indexForm } from './fts-text.js';

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
    expect(toFtsMatch(q)).toBe('("login" AND "token refresh" AND "auth" *) NOT "flaky"');
  });

  it('treats unknown keys, bad dates and bad agents as text or ignores them', () => {
    const q = parseSearchQuery('foo:bar after:yesterday agent:nobody');
    expect(q.terms.map((t) => t.text)).toEqual(['foo:bar', 'after:yesterday', 'agent:nobody']);
    expect(q.filters).toEqual({});
  });

  it('turns terms into quoted FTS strings: CJK as a phrase of characters, prefixes with *', () => {
    const q = parseSearchQuery('go 日本 検索する refac*');
    expect(q.terms.map((t) => [t.text, t.prefix])).toEqual([
      ['go', false],
      ['日本', false],
      ['検索する', false],
      ['refac', true],
    ]);
    expect(toFtsMatch(q)).toBe('"go" AND " 日  本 " AND " 検  索  す  る " AND "refac" *');
    expect(toFtsMatch(parseSearchQuery('say he"s'))).toBe('"say" AND "he""s"');
    expect(toFtsMatch(parseSearchQuery('-- * +'))).toBeNull();
    expect(toFtsMatch(parseSearchQuery('deploy -logout'))).toBe('("deploy") NOT "logout"');
  });

  it('reads `-xx` (shorter than three characters) as text, so `ls -la` means the flag', () => {
    expect(parseSearchQuery('ls -la').terms.map((t) => [t.text, t.negated])).toEqual([
      ['ls', false],
      ['-la', false],
    ]);
  });

  it('searches for the literal text when everything is excluded', () => {
    expect(parseSearchQuery('-rf').terms).toEqual([{ text: '-rf', prefix: false, negated: false }]);
  });

  it('never produces an FTS expression SQLite rejects (fuzz)', () => {
    const db = new Database(':memory:');
    db.exec("CREATE VIRTUAL TABLE f USING fts5(body, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2')");
    db.prepare('INSERT INTO f (body) VALUES (?)').run(indexForm('the quick brown fox "jumps" over NEAR(the) lazy dog * - : 日本語 parseConfigFile'));
    const stmt = db.prepare('SELECT count(*) FROM f WHERE f MATCH ?');
    const alphabet = ['"', '*', '-', ':', '(', ')', 'NEAR', 'AND', 'OR', 'NOT', '^', '+', ' ', 'fox', 'ju', '日本語', 'aB', 'agent:', 'after:', '\\', "'", '{', '}', 'col', '\u0000'];
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
    const count = (q: string) => (stmt.get(toFtsMatch(parseSearchQuery(q))) as { 'count(*)': number })['count(*)'];
    expect([count('fox'), count('本語'), count('ju*'), count('NEAR(the)'), count('Config'), count('parseconfigfile')]).toEqual([1, 1, 1, 1, 1, 1]);
    expect([count('fo'), count('語本'), count('fox -lazy')]).toEqual([0, 0, 0]);
    db.close();
  });
});
