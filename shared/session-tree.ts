/**
 * Subagent sessions (Claude's sidechains, Codex/pi forks, Hermes children) listed under their
 * parent instead of as top-level rows. Order is kept otherwise: a parent's children follow it,
 * newest first as listed; a child whose parent is not in the list stays where it was, marked.
 */
export interface TreeEntry<T> {
  session: T;
  /** 0 for top-level sessions; 1 for a child right under its parent, 2 for a grandchild… */
  depth: number;
  /** A subagent or fork (it has a parent), whether or not the parent is listed. */
  subagent: boolean;
}

export function nestSubagents<T extends { id: string; parentId: string | null }>(sessions: readonly T[]): TreeEntry<T>[] {
  const listed = new Set(sessions.map((s) => s.id));
  const children = new Map<string, T[]>();
  for (const s of sessions) {
    if (s.parentId === null || s.parentId === s.id || !listed.has(s.parentId)) continue;
    const list = children.get(s.parentId) ?? [];
    list.push(s);
    children.set(s.parentId, list);
  }
  const out: TreeEntry<T>[] = [];
  const placed = new Set<string>();
  const place = (s: T, depth: number): void => {
    if (placed.has(s.id)) return; // a cycle in bad data: each session once
    placed.add(s.id);
    out.push({ session: s, depth, subagent: s.parentId !== null && s.parentId !== s.id });
    for (const child of children.get(s.id) ?? []) place(child, depth + 1);
  };
  for (const s of sessions) {
    const nested = s.parentId !== null && s.parentId !== s.id && listed.has(s.parentId);
    if (!nested) place(s, 0);
  }
  // Sessions only reachable through a cycle (a parent of its own parent) still show.
  for (const s of sessions) place(s, 0);
  return out;
}
