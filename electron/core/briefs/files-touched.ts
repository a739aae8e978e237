/** Files the agent changed, from its tool calls, each with the last action taken on it. */
import type { Message } from '../../../shared/model.js';
import { fileEffects, type FileAction } from './tool-input.js';

export interface FileTouch {
  /** Relative to the session cwd when inside it, else as the agent wrote it. */
  path: string;
  action: FileAction;
  tool: string;
  /** seq of the last call that touched it. */
  seq: number;
  times: number;
}

export function displayPath(p: string, cwd: string | null): string {
  const normalized = p.replace(/\\/g, '/');
  if (cwd) {
    const base = cwd.replace(/\\/g, '/').replace(/\/+$/, '');
    if (normalized.startsWith(base + '/')) return normalized.slice(base.length + 1);
  }
  return normalized.replace(/^\.\//, '');
}

/** Most recently touched first. */
export function collectFilesTouched(toolCalls: Message[], cwd: string | null): FileTouch[] {
  const byPath = new Map<string, FileTouch>();
  for (const call of toolCalls) {
    for (const effect of fileEffects(call.toolName, call.text)) {
      const path = displayPath(effect.path, cwd);
      const prev = byPath.get(path);
      byPath.set(path, { path, action: effect.action, tool: call.toolName ?? 'tool', seq: call.seq, times: (prev?.times ?? 0) + 1 });
    }
  }
  return [...byPath.values()].sort((a, b) => b.seq - a.seq || a.path.localeCompare(b.path));
}
