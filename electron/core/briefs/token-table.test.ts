// The build's token table counts exactly what gpt-tokenizer counts: budgets counted either way hold
// alike. Compared over every line of the real agent stores in the fixtures and over generated text
// that stresses the split pattern and the byte pair merge (scripts, emoji, digits, whitespace runs,
// contractions, lone surrogates, long runs).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixturesDir } from '../../../testing/fixture-home.js';
import { TOKEN_TABLE_FILE, TokenTable } from './token-table.js';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
type TableModule = { TOKEN_TABLE_FILE: string; buildTokenTable(): Uint8Array };
const gpt = createRequire(import.meta.url)('gpt-tokenizer') as { countTokens(text: string): number };

function fixtureLines(): string[] {
  const lines: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, e.name);
      if (e.isDirectory()) walk(file);
      else if (/\.(jsonl|json|md|txt)$/.test(e.name) && fs.statSync(file).size < 5_000_000) lines.push(...fs.readFileSync(file, 'utf8').split('\n'));
    }
  };
  walk(path.join(fixturesDir(), 'home'));
  return lines.filter((l) => l && !l.includes('<|'));
}

/** Deterministic text from pieces that exercise every branch of the o200k split pattern. */
function generated(count: number): string[] {
  const parts = [' the', 'The', 'HTTPServer', "don't", " I'LL", "we'VE", '12345', '٣٤٥', ' ', '   ', '\n', '\r\n', '\t', '//', '==>', '.',
    'naïve', 'Ω≈ç', '你好世界', 'こんにちは', '한국어', 'עברית', 'العربية', 'ไทย', '👍🏽', '🇯🇵', '👨‍👩‍👧', 'é', 'e\u0301', '\ud800', '\udfff', 'x'.repeat(40), '\u200b', '😀😀😀'];
  let seed = 42;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  return Array.from({ length: count }, () => Array.from({ length: 1 + Math.floor(next() * 30) }, () => parts[Math.floor(next() * parts.length)]).join(''));
}

describe('token table', () => {
  let table: TokenTable;
  beforeAll(async () => {
    const { buildTokenTable } = (await import(pathToFileURL(path.join(repo, 'bin', 'token-table.mjs')).href)) as TableModule;
    table = new TokenTable(buildTokenTable());
  }, 120_000);

  it('counts every line of the fixture stores as gpt-tokenizer does', () => {
    const lines = fixtureLines();
    expect(lines.length).toBeGreaterThan(1000);
    const differ = lines.filter((l) => table.count(l) !== gpt.countTokens(l));
    expect(differ.slice(0, 3)).toEqual([]);
  });

  it('counts generated text of every script, emoji, digits, whitespace and broken surrogates as gpt-tokenizer does', () => {
    const texts = [...generated(3000), 'a'.repeat(10_000), ' '.repeat(500), '1'.repeat(301), ''];
    const differ = texts.filter((t) => table.count(t) !== gpt.countTokens(t));
    expect(differ.slice(0, 3)).toEqual([]);
    // The same text again (now from the piece cache) counts the same.
    expect(texts.map((t) => table.count(t))).toEqual(texts.map((t) => gpt.countTokens(t)));
  });

  it('refuses a file that is not a whole table', async () => {
    const { buildTokenTable, TOKEN_TABLE_FILE: written } = (await import(pathToFileURL(path.join(repo, 'bin', 'token-table.mjs')).href)) as TableModule;
    expect(written).toBe(TOKEN_TABLE_FILE);
    const bytes = buildTokenTable();
    expect(() => new TokenTable(bytes.subarray(0, bytes.length - 10))).toThrow(/truncated/);
    expect(() => new TokenTable(new TextEncoder().encode('not a table at all'))).toThrow(/not a token table/);
  }, 120_000);
});
