/**
 * Quoting for the three languages a launch command passes through: POSIX sh, PowerShell and
 * AppleScript string literals. Each returns a literal that the language reads back as exactly `value`.
 */

/** POSIX sh: single quotes keep everything literal; a `'` is closed, escaped and reopened. */
export function quotePosix(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * PowerShell single-quoted string: a quote is doubled. PowerShell also treats the typographic
 * single quotes (U+2018..U+201B) as quotes, so those are doubled too.
 */
export function quotePowerShell(value: string): string {
  return `'${value.replace(/['\u2018\u2019\u201A\u201B]/g, (q) => q + q)}'`;
}

/** AppleScript string literal: backslash and double quote are escaped with a backslash. */
export function quoteAppleScript(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** Windows Terminal (wt.exe) splits its command line at `;` unless escaped as `\;`. */
export function escapeWindowsTerminalArg(value: string): string {
  return value.replace(/;/g, '\\;');
}
