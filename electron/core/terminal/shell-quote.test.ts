import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { cdTarget, changeDirectory, escapeWindowsTerminalArg, quoteAppleScript, quotePosix, quotePowerShell } from './shell-quote.js';

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

describe('quotePosix for fish too', () => {
  it('never puts a backslash or a quote inside single quotes (fish reads \\\' and \\\\ there as escapes)', () => {
    expect(quotePosix("a\\'b")).toBe("'a'\\\\\\''b'");
    expect(quotePosix('C:\\x\\\\y')).toBe("'C:'\\\\'x'\\\\\\\\'y'");
    // Only three kinds of token: '…' without \ or ', an escaped backslash, an escaped quote.
    for (const value of ["a\\'b", '\\', "'\\'", "x''y\\\\z"]) expect(quotePosix(value)).toMatch(/^(?:'[^'\\]+'|\\\\|\\')+$/);
  });
});

describe('changeDirectory', () => {
  it('keeps relative folders from reading as options, stack entries or CDPATH lookups', () => {
    expect(cdTarget('-rf')).toBe('./-rf');
    expect(cdTarget('+1')).toBe('./+1');
    expect(cdTarget('/abs/-x')).toBe('/abs/-x');
    expect(changeDirectory('posix', '-')).toBe("cd './-'");
  });

  // PowerShell is not packaged for Debian, so these are strings: in a single-quoted PowerShell string
  // only ' (and the typographic quotes U+2018..U+201B) are special, and they are doubled; $, `, ",
  // ; and newlines are literal. -LiteralPath keeps [ ] * ? from acting as wildcards.
  it('PowerShell: Set-Location -LiteralPath with a single-quoted literal', () => {
    expect(changeDirectory('powershell', "C:\\it's $(calc) `n \"x\"; [a]*")).toBe(
      "Set-Location -LiteralPath 'C:\\it''s $(calc) `n \"x\"; [a]*'",
    );
    expect(changeDirectory('powershell', 'C:\\a\u2018b\u2019c')).toBe("Set-Location -LiteralPath 'C:\\a\u2018\u2018b\u2019\u2019c'");
    // No quote survives undoubled, so the string cannot end early.
    for (const value of ["'", "''", "a'; calc; '", '\u201b']) {
      const body = quotePowerShell(value).slice(1, -1);
      expect(body.replace(/(['\u2018-\u201b])\1/g, '')).not.toMatch(/['\u2018-\u201b]/);
    }
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
