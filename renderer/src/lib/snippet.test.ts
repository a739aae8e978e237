import { describe, expect, it } from 'vitest';
import { parseSnippet, snippetText } from './snippet.js';

describe('parseSnippet', () => {
  it('splits marked matches from plain text', () => {
    expect(parseSnippet('read [[todo]].txt and [[tell]] me')).toEqual([
      { text: 'read ', match: false },
      { text: 'todo', match: true },
      { text: '.txt and ', match: false },
      { text: 'tell', match: true },
      { text: ' me', match: false },
    ]);
  });

  it('keeps HTML as literal text', () => {
    const parts = parseSnippet('<img src=x onerror=alert(1)> [[<b>]]');
    expect(parts).toEqual([
      { text: '<img src=x onerror=alert(1)> ', match: false },
      { text: '<b>', match: true },
    ]);
  });

  it('treats an unmatched opener as text and merges adjacent matches', () => {
    expect(parseSnippet('a [[b')).toEqual([{ text: 'a [[b', match: false }]);
    expect(parseSnippet('[[a]][[b]]')).toEqual([{ text: 'ab', match: true }]);
    expect(parseSnippet('')).toEqual([]);
    expect(parseSnippet('x ]] y')).toEqual([{ text: 'x ]] y', match: false }]);
  });

  it('gives plain text without markers', () => {
    expect(snippetText('…the [[last]] commit…')).toBe('…the last commit…');
  });
});
