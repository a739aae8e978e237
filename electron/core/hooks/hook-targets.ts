/**
 * Which hooks Baton installs into each agent, in the agent's own event names, and where each agent
 * reads them. Checked against the CLIs themselves: Claude Code 2.1 (`~/.claude/settings.json`,
 * SessionStart/PreCompact/Stop), Codex 0.169 (`$CODEX_HOME/hooks.json`, the same three events and
 * Claude's wire format; the `hooks` feature is on by default, `codex_hooks` is its old name) and
 * Hermes Agent (shell hooks in `config.yaml`: `pre_llm_call` injects context on the first turn,
 * `on_session_end` ends each turn; no shell hook runs before Hermes compresses a conversation).
 */
import path from 'node:path';
import type { AgentId } from '../../../shared/model.js';
import type { HookEvent } from '../handoff/hook-main.js';
import type { Environment } from '../paths.js';

export interface HookSpec {
  /** The agent's event name. */
  event: string;
  baton: HookEvent;
  /** Seconds the agent waits for the hook. */
  timeout: number;
}

export interface AgentHookTarget {
  agent: AgentId;
  format: 'json' | 'yaml';
  file(environment: Environment): string;
  specs: HookSpec[];
  /** Parts that cannot be installed, and why (shown by `baton hooks status`). */
  unsupported: string[];
}

const CLAUDE_LIKE: HookSpec[] = [
  { event: 'SessionStart', baton: 'session-start', timeout: 10 },
  { event: 'PreCompact', baton: 'pre-compact', timeout: 30 },
  { event: 'Stop', baton: 'stop', timeout: 10 },
];

export const HOOK_TARGETS: Partial<Record<AgentId, AgentHookTarget>> = {
  claude: {
    agent: 'claude',
    format: 'json',
    // Settings move into CLAUDE_CONFIG_DIR when it is set, as the transcripts do.
    file: ({ env, home }) => path.join(env.CLAUDE_CONFIG_DIR ? env.CLAUDE_CONFIG_DIR.split(',')[0]!.trim() : path.join(home, '.claude'), 'settings.json'),
    specs: CLAUDE_LIKE,
    unsupported: [],
  },
  codex: {
    agent: 'codex',
    format: 'json',
    file: ({ env, home }) => path.join(env.CODEX_HOME || path.join(home, '.codex'), 'hooks.json'),
    specs: CLAUDE_LIKE,
    unsupported: [],
  },
  hermes: {
    agent: 'hermes',
    format: 'yaml',
    file: ({ env, home }) => path.join(env.HERMES_HOME || path.join(home, '.hermes'), 'config.yaml'),
    specs: [
      { event: 'pre_llm_call', baton: 'session-start', timeout: 10 },
      { event: 'on_session_end', baton: 'stop', timeout: 10 },
    ],
    unsupported: [
      'PreCompact checkpoint: Hermes runs no shell hook before it compresses a conversation (its only compression event, session:compress, is a gateway hook that fires after compression, in-process Python).',
    ],
  },
};

export const HOOK_AGENTS = Object.keys(HOOK_TARGETS) as AgentId[];
