/**
 * "Excluded projects" as SQL: a session is hidden when its cwd matches one of the user's globs,
 * or lies below a folder that does. SQLite's GLOB is case-sensitive like the paths it compares.
 */
export function excludedCwdSql(globs: readonly string[] | undefined, params: Record<string, unknown>, column = 's.cwd'): string {
  if (!globs?.length) return '';
  return globs
    .map((glob, i) => {
      params[`xglob${i}`] = glob.replace(/\/+$/, '');
      return ` AND NOT (${column} IS NOT NULL AND (${column} GLOB @xglob${i} OR ${column} GLOB @xglob${i} || '/*'))`;
    })
    .join('');
}
