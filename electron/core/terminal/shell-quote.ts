/**
 * Quoting for every language a command line Baton prints or runs passes through: the Unix shells
 * (sh, dash, bash, zsh and fish alike), PowerShell, and AppleScript string literals. Each returns
 * a literal that the language reads back as exactly `value`: data, never code.
 */

/**
 * sh, dash, bash, zsh AND fish. Single quotes keep everything literal in the POSIX shells, but in
 * fish `\'` and `\\` are escapes even inside single quotes, so a backslash inside single quotes
 * would read differently in fish (`'a\'b'` breaks out of the quotes there). So backslashes and
 * quotes never go inside single quotes: each run of backslashes is written `\\` per backslash and
 * each quote `\'`, outside the quotes, which every one of these shells reads as the character
 * itself. What remains inside `'…'` has no `\` and no `'`, which all of them read literally
 * (newlines, `$`, backticks, `!`, globs included). Runs are maximal, so `''` (zsh's RC_QUOTES) never
 * appears inside quotes.
 */
export function quotePosix(value: string): string {
  if (value === '') return "''";
  return value
    .split(/(\\+|')/)
    .filter((part) => part !== '')
    .map((part) => (part === "'" ? "\\'" : part.startsWith('\\') ? part.replace(/\\/g, '\\\\') : `'${part}'`))
    .join('');
}

/**
 * PowerShell single-quoted string: only a quote is special, and it is doubled. PowerShell also treats
 * the typographic single quotes (U+2018..U+201B) as quotes, so those are doubled too. `$`, backtick
 * and `"` are literal inside single quotes.
 */
export function quotePowerShell(value: string): string {
  return `'${value.replace(/['\u2018\u2019\u201A\u201B]/g, (q) => q + q)}'`;
}

export type ShellKind = 'posix' | 'powershell';

export function quoteFor(shell: ShellKind, value: string): string {
  return shell === 'posix' ? quotePosix(value) : quotePowerShell(value);
}

/**
 * The directory argument for a Unix `cd`: a relative path gets `./`, so it cannot read as an option
 * (`-rf`), as `-`/`+1` (previous or stacked directory in bash/zsh) or be looked up in CDPATH.
 */
export function cdTarget(dir: string): string {
  return dir.startsWith('/') || /^[A-Za-z]:[\\/]/.test(dir) ? dir : `./${dir}`;
}

/** `cd` into `dir` as a command of the given shell (Set-Location -LiteralPath in PowerShell: no wildcards). */
export function changeDirectory(shell: ShellKind, dir: string): string {
  return shell === 'posix' ? `cd ${quotePosix(cdTarget(dir))}` : `Set-Location -LiteralPath ${quotePowerShell(dir)}`;
}

/** AppleScript string literal: backslash and double quote are escaped with a backslash. */
export function quoteAppleScript(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** Windows Terminal (wt.exe) splits its command line at `;` unless escaped as `\;`. */
export function escapeWindowsTerminalArg(value: string): string {
  return value.replace(/;/g, '\\;');
}
