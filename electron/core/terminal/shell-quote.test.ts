import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { escapeWindowsTerminalArg, quoteAppleScript, quotePosix, quotePowerShell } from './shell-quote.js';

const HOSTILE = [
  'plain',
  'with space',
  "it's",
  `'leading and trailing'`,
  '"double" quotes',
  '$HOME `whoami` $(id) \\n \\',
  'semi; colon && amp | pipe > redirect',
  'new\nline',
  '',
  'ünïcödé ✓ 日本',
];

describe('quotePosix', () => {
  it.each(HOSTILE)('is read back verbatim by a real sh: %j', (value) => {
    const out = execFileSync('sh', ['-c', `printf '%s' ${quotePosix(value)}`], { encoding: 'utf8' });
    expect(out).toBe(value);
  });
});

describe('quotePowerShell', () => {
  it('doubles single quotes, including the typographic ones PowerShell also accepts', () => {
    expect(quotePowerShell("C:\\Users\\O'Brien\\my proj")).toBe("'C:\\Users\\O''Brien\\my proj'");
    expect(quotePowerShell('a\u2019b')).toBe("'a\u2019\u2019b'");
    expect(quotePowerShell('$env:HOME `n')).toBe("'$env:HOME `n'");
  });
});

describe('quoteAppleScript', () => {
  it('escapes backslashes before quotes', () => {
    expect(quoteAppleScript(`cd '/a b' && x "$(cat 'f')"`)).toBe(`"cd '/a b' && x \\"$(cat 'f')\\""`);
    expect(quoteAppleScript('back\\slash')).toBe('"back\\\\slash"');
  });
});

describe('escapeWindowsTerminalArg', () => {
  it('escapes every semicolon', () => {
    expect(escapeWindowsTerminalArg('a;b;c')).toBe('a\\;b\\;c');
  });
});
