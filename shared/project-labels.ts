/** Project labels from a session's cwd: the folder name, with the full path kept for tooltips. */

export function projectName(cwd: string | null | undefined): string {
  if (!cwd) return 'no project';
  const trimmed = cwd.replace(/[\\/]+$/, '');
  if (!trimmed) return cwd;
  const parts = trimmed.split(/[\\/]/);
  return parts[parts.length - 1] || trimmed;
}

/** Distinct cwds, most used first, for the project filter. */
export function projectOptions(cwds: Iterable<string | null>): { cwd: string; name: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const cwd of cwds) if (cwd) counts.set(cwd, (counts.get(cwd) ?? 0) + 1);
  return [...counts.entries()]
    .map(([cwd, count]) => ({ cwd, name: projectName(cwd), count }))
    .sort((a, b) => b.count - a.count || a.name.localeCompare(b.name));
}
