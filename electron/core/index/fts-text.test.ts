import { describe, expect, it } from 'vitest';
import { hasTokens, indexForm, messageIndexForm, queryForm, searchableText, INDEXED_TOOL_OUTPUT_CHARS } from './fts-text.js';

describe('the text FTS5 indexes', () => {
  it('sets every CJK character apart, in queries and in text alike', () => {
    expect(indexForm('データを更新')).toBe(' デ  ー  タ  を  更  新 ');
    expect(queryForm('日本 Go')).toBe(' 日  本  Go');
    expect(indexForm('plain ascii text')).toBe('plain ascii text');
  });

  it('appends the parts of camelCase and PascalCase words once, after the text, and caps them', () => {
    expect(indexForm('call parseConfigFile and SessionIndex, then parseConfig')).toBe(
      'call parseConfigFile and SessionIndex, then parseConfig\nparse config file session index',
    );
    expect(indexForm('HTTPServer v2Config')).toBe('HTTPServer v2Config\nhttp server v 2 config');
    expect(indexForm('snake_case and ALLCAPS stay as they are')).toBe('snake_case and ALLCAPS stay as they are');
    const blob = Array.from({ length: 500 }, (_, i) => `w${i}Part${i}x`).join(' ');
    expect(indexForm(blob).split('\n')[1]!.split(' ')).toHaveLength(64);
  });

  it('indexes tool calls with their tool name, the first 4 KB of tool outputs, and no thinking', () => {
    expect(searchableText('tool_call', 'Bash', 'ls -la')).toBe('Bash ls -la');
    expect(searchableText('tool_result', null, 'x'.repeat(10_000))).toHaveLength(INDEXED_TOOL_OUTPUT_CHARS);
    expect(searchableText('thinking', null, 'secret')).toBeNull();
    expect(messageIndexForm('thinking', null, 'secret')).toBeNull();
    expect(messageIndexForm('text', null, 'myVar')).toBe('myVar\nmy var');
  });

  it('knows when a term has nothing a word tokenizer keeps', () => {
    expect([hasTokens('--'), hasTokens('*'), hasTokens('+'), hasTokens('é'), hasTokens('日'), hasTokens('a1')]).toEqual([false, false, false, true, true, true]);
  });
});
