/**
 * Which folder rule a session falls under, and the checks a new rule passes before it is stored.
 * Folder matching is the pending handoffs' own (handoff/project-match.ts): the folder, any folder
 * below it, or any folder of the same git work tree; the most specific folder wins.
 */
import fs from 'node:fs';
import { ApiError } from '../../../shared/contract.js';
import { AGENTS, type AgentId } from '../../../shared/model.js';
import { AUTO_TRIGGERS, type AutoRule, type AutoTrigger } from '../../../shared/auto-continue.js';
import { matchProject, realDir, worktreeRoot } from '../handoff/project-match.js';

/** The rule for a session that ran in `cwd`, or null when its folder is not switched on. */
export function ruleForCwd(rules: readonly AutoRule[], cwd: string | null): AutoRule | null {
  if (!cwd || rules.length === 0) return null;
  let root: string | null | undefined;
  const cwdRoot = () => (root === undefined ? (root = worktreeRoot(cwd)) : root);
  const rank = { folder: 3, subfolder: 2, worktree: 1 } as const;
  let best: { rule: AutoRule; score: number } | null = null;
  for (const rule of rules) {
    const how = matchProject({ projectDir: rule.folder, worktreeRoot: rule.worktreeRoot }, cwd, cwdRoot);
    if (!how) continue;
    // The folder itself beats a parent folder, which beats "same work tree"; then the longer path.
    const score = rank[how] * 1_000_000 + rule.folder.length;
    if (!best || score > best.score) best = { rule, score };
  }
  return best?.rule ?? null;
}

export interface RuleInput {
  folder: string;
  targets: readonly string[];
  when?: readonly string[];
}

/** A rule ready to store: an existing directory (symlinks resolved), known agents, known triggers. */
export function validateRule(input: RuleInput): Omit<AutoRule, 'createdAt' | 'updatedAt'> {
  const folder = realDir(input.folder);
  let isDir = false;
  try {
    isDir = fs.statSync(folder).isDirectory();
  } catch {
    // reported below
  }
  if (!isDir) throw new ApiError('bad_request', `${input.folder} is not a folder on this machine.`);
  const targets: AgentId[] = [];
  for (const raw of input.targets) {
    const name = raw.trim();
    if (!(AGENTS as readonly string[]).includes(name)) throw new ApiError('bad_request', `Unknown agent "${name}" (expected ${AGENTS.join(', ')}).`);
    if (!targets.includes(name as AgentId)) targets.push(name as AgentId);
  }
  if (targets.length === 0) throw new ApiError('bad_request', 'Name at least one agent to carry on (--to codex,gemini).');
  const when: AutoTrigger[] = [];
  for (const raw of input.when ?? ['limit']) {
    const name = raw.trim();
    if (!(AUTO_TRIGGERS as readonly string[]).includes(name)) throw new ApiError('bad_request', `Unknown trigger "${name}" (expected ${AUTO_TRIGGERS.join(', ')}).`);
    if (!when.includes(name as AutoTrigger)) when.push(name as AutoTrigger);
  }
  if (when.length === 0) throw new ApiError('bad_request', 'Name at least one trigger (limit, context).');
  return { folder, worktreeRoot: worktreeRoot(folder), targets, when };
}
