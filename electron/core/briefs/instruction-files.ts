/**
 * Project instruction files: each agent loads its own (CLAUDE.md, AGENTS.md, GEMINI.md, .clinerules, …)
 * from the project by itself, and ignores the others. A handoff from Claude Code to Codex loses
 * CLAUDE.md unless the brief says to read it, so the brief names the files the source agent
 * followed that the target does not load, and the ones the target loads by itself.
 *
 * Each list was read off the agent's own code (the version Baton is tested with): groups are
 * alternatives, of which the agent loads the first that exists (pi: AGENTS.md, else CLAUDE.md).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { AgentId } from '../../../shared/model.js';

type Groups = readonly (readonly string[])[];

export const INSTRUCTION_FILES: Record<AgentId, Groups> = {
  // Claude Code docs: CLAUDE.md or .claude/CLAUDE.md, plus the personal CLAUDE.local.md.
  claude: [['CLAUDE.md', '.claude/CLAUDE.md'], ['CLAUDE.local.md']],
  // codex 0.169 binary: AGENTS.override.md wins over AGENTS.md in a directory.
  codex: [['AGENTS.override.md', 'AGENTS.md']],
  // opencode 1.18: AGENTS.md, CLAUDE.md only when there is none (its Claude Code compatibility).
  opencode: [['AGENTS.md', 'CLAUDE.md']],
  // hermes-agent prompt builder: .hermes.md / HERMES.md, else the first of AGENTS.md, CLAUDE.md, .cursorrules.
  hermes: [['.hermes.md', 'HERMES.md', 'AGENTS.md', 'CLAUDE.md', '.cursorrules']],
  // gemini-cli 0.61: contextFileName defaults to GEMINI.md.
  gemini: [['GEMINI.md']],
  // qwen-code 0.24: QWEN.md, AGENTS.md, QWEN.local.md and .qwen/rules/.
  qwen: [['QWEN.md'], ['AGENTS.md'], ['QWEN.local.md'], ['.qwen/rules']],
  // pi 0.73 resource-loader: the first of AGENTS.md, CLAUDE.md.
  pi: [['AGENTS.md', 'CLAUDE.md']],
  // cline 3.0.65 binary: .clinerules (file or folder) and AGENTS.md in the workspace.
  cline: [['.clinerules'], ['AGENTS.md']],
  // kilo 7.7 (an OpenCode fork): AGENTS.md else CLAUDE.md, plus its rules folders.
  kilo: [['AGENTS.md', 'CLAUDE.md'], ['.kilo/rules'], ['.kilocode/rules']],
  // Copilot CLI docs: repository instructions, path instructions, and AGENTS.md / CLAUDE.md / GEMINI.md at the root.
  copilot: [['.github/copilot-instructions.md'], ['.github/instructions'], ['AGENTS.md'], ['CLAUDE.md'], ['GEMINI.md']],
  // cn 1.5.47: the first of AGENTS.md, AGENT.md, CLAUDE.md, CODEX.md, and .continue/rules/.
  continue: [['AGENTS.md', 'AGENT.md', 'CLAUDE.md', 'CODEX.md'], ['.continue/rules']],
  // droid 0.225 binary: AGENTS.md.
  droid: [['AGENTS.md']],
  // letta-code 0.32: none at start (its memory is the agent's own; AGENTS.md is loaded only into an
  // EnterWorktree result, and its system prompt asks the model to read AGENTS.md or CLAUDE.md itself).
  letta: [],
};

const CANDIDATES = [...new Set(Object.values(INSTRUCTION_FILES).flatMap((groups) => groups.flat()))];

/**
 * The instruction files present in the project (its directory, and the repository root above it),
 * as paths relative to the directory they were found in. A few stats; a missing directory has none.
 */
export function findInstructionFiles(cwd: string | null): string[] {
  if (!cwd || !path.isAbsolute(cwd) || !exists(cwd)) return [];
  const dirs = [cwd];
  const root = repositoryRoot(cwd);
  if (root && root !== cwd) dirs.push(root);
  const found: string[] = [];
  for (const dir of dirs) {
    for (const name of CANDIDATES) {
      if (found.includes(name)) continue;
      if (exists(path.join(dir, name))) found.push(name);
    }
  }
  return found;
}

/** The files of `present` the agent loads by itself. */
export function loadedBy(agent: AgentId, present: readonly string[]): string[] {
  const loaded: string[] = [];
  for (const group of INSTRUCTION_FILES[agent]) {
    const first = group.find((name) => present.includes(name));
    if (first) loaded.push(first);
  }
  return loaded;
}

function exists(file: string): boolean {
  try {
    fs.statSync(file);
    return true;
  } catch {
    return false;
  }
}

/** The nearest directory at or above `dir` that holds `.git`, at most 40 levels up. */
function repositoryRoot(dir: string): string | null {
  let current = dir;
  for (let i = 0; i < 40; i++) {
    if (exists(path.join(current, '.git'))) return current;
    const parent = path.dirname(current);
    if (parent === current) return null;
    current = parent;
  }
  return null;
}
