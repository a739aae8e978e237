/**
 * Which indexed sessions the user sees. The index keeps every session it ever read (even when the
 * agent deleted the transcript), so what is shown is decided at query time:
 * - only sessions read from a store root that is configured now (an agent disabled, or its path
 *   pointed elsewhere, hides its sessions without losing them; pointing it back shows them again);
 * - minus sessions whose cwd matches an "excluded projects" glob (or lies below a matching folder).
 */
import type { AgentId } from '../../../shared/model.js';

export interface SessionVisibility {
  /** Per agent, the store roots whose sessions are shown; an agent left out shows nothing. */
  roots?: Partial<Record<AgentId, readonly string[]>>;
  /** Globs over cwd, hidden everywhere. SQLite GLOB: case-sensitive, `*` also crosses `/`. */
  excludeCwdGlobs?: readonly string[];
}

export function visibilitySql(visibility: SessionVisibility | undefined, params: Record<string, unknown>): string {
  if (!visibility) return '';
  let sql = '';
  if (visibility.roots) {
    const alternatives: string[] = [];
    let n = 0;
    for (const [agent, roots] of Object.entries(visibility.roots)) {
      if (!roots?.length) continue;
      const agentParam = `vagent${n}`;
      params[agentParam] = agent;
      const prefixes = roots.map((root) => {
        const p = `vroot${n++}`;
        params[p] = root.replace(/[\\/]+$/, '');
        // A prefix test instead of GLOB/LIKE: paths may contain *, ?, [, % or _.
        return `(s.source_path = @${p} OR substr(s.source_path, 1, length(@${p}) + 1) IN (@${p} || '/', @${p} || '\\'))`;
      });
      alternatives.push(`(s.agent = @${agentParam} AND (${prefixes.join(' OR ')}))`);
    }
    sql += alternatives.length ? ` AND (${alternatives.join(' OR ')})` : ' AND 0';
  }
  (visibility.excludeCwdGlobs ?? []).forEach((glob, i) => {
    params[`xglob${i}`] = glob.replace(/\/+$/, '');
    sql += ` AND NOT (s.cwd IS NOT NULL AND (s.cwd GLOB @xglob${i} OR s.cwd GLOB @xglob${i} || '/*'))`;
  });
  return sql;
}
