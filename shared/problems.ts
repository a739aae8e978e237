/** One line saying what is wrong with a file Baton could not read (wholly): CLI, API and UI say it alike. */
import type { SourceProblem } from './model.js';

export function describeProblem(p: SourceProblem): string {
  const where = `${p.file}${p.line ? `:${p.line}` : ''}${p.offset !== undefined ? ` (byte ${p.offset})` : ''}`;
  // SQLite read errors name their file already.
  const message = p.message.startsWith(`${p.file}: `) ? p.message.slice(p.file.length + 2) : p.message;
  const more = p.count > 1 ? ` (${p.count} lines like it in this file)` : '';
  return `${where}: ${message}${more}`;
}
