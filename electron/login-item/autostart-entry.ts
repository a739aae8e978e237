/** The Linux XDG autostart entry for launch at login (freedesktop Desktop Entry spec). Pure. */
import path from 'node:path';

/**
 * Quotes one Exec argument: `%` doubled (field codes); arguments with reserved characters wrapped in
 * double quotes with `"`, `` ` ``, `$` and `\` backslash-escaped; then the string-level escape doubles
 * every backslash again, as the spec requires.
 */
export function execArg(arg: string): string {
  const literal = arg.replace(/%/g, '%%');
  const quoted = /[\s"'\\$`<>~|&;*?#()]/.test(literal) || literal === '' ? `"${literal.replace(/(["`$\\])/g, '\\$1')}"` : literal;
  return quoted.replace(/\\/g, '\\\\');
}

export function autostartEntry(exec: string[]): string {
  return [
    '[Desktop Entry]',
    'Type=Application',
    'Name=Baton',
    'Comment=Switch AI coding agents mid-task',
    `Exec=${exec.map(execArg).join(' ')}`,
    'X-GNOME-Autostart-enabled=true',
    '',
  ].join('\n');
}

export function autostartFile(env: NodeJS.ProcessEnv, home: string): string {
  return path.join(env.XDG_CONFIG_HOME || path.join(home, '.config'), 'autostart', 'baton.desktop');
}
