/**
 * Which hooks Baton installs into each agent, in the agent's own event names, and where each agent
 * reads them. Checked against the CLIs themselves: Claude Code 2.1 (`~/.claude/settings.json`,
 * SessionStart/PreCompact/Stop), Codex 0.169 (`$CODEX_HOME/hooks.json`, the same three events and
 * Claude's wire format; the `hooks` feature is on by default, `codex_hooks` is its old name) and
 * Hermes Agent (shell hooks in `config.yaml`: `pre_llm_call` injects context on the first turn,
 * `on_session_end` ends each turn; no shell hook runs before Hermes compresses a conversation),
 * Gemini CLI 0.61 (`hooks` in `~/.gemini/settings.json`: SessionStart with
 * `hookSpecificOutput.additionalContext`, AfterAgent at the end of each turn, timeouts in
 * milliseconds; bundle/docs/hooks/reference.md) and Qwen Code 0.24 (`hooks` in
 * `~/.qwen/settings.json`, Claude's event names and wire format, timeouts in seconds;
 * bundled/qc-helper/docs/features/hooks.md), and GitHub Copilot CLI 1.0.102 (personal hooks in
 * `$COPILOT_HOME/hooks/*.json`, default ~/.copilot: Baton keeps its own `baton.json` there; camelCase
 * events — sessionStart, whose `{"additionalContext"}` answer reaches the model, and agentStop at
 * the end of each turn; Claude's nested `{hooks: [{type, command, timeout}]}` groups are accepted,
 * timeouts in seconds; its changelog.json and the real CLI checked), and Factory Droid 0.225 (Claude's event names, stdin
 * and `hookSpecificOutput.additionalContext`, timeouts in seconds; `~/.factory/hooks.json`, which
 * is the events object itself, or the `hooks` key of `~/.factory/settings.json` while there is no
 * hooks.json: Droid reads settings.json's hooks only then), and Letta Code 0.32 (`hooks` in `~/.letta/settings.json`,
 * Claude's groups, timeouts in milliseconds; letta.js `runSessionStartHooks`: the hook gets
 * `{event_type, working_directory, agent_id, conversation_id, …}` and its stdout goes into the first
 * user message as "[SessionStart hook context]", in the interactive TUI only).
 */
import path from 'node:path';
import type { AgentId } from '../../../../shared/model.js';
import type { HookEvent } from './hook-events.js';
import type { Environment } from '../../paths.js';
import fs from 'node:fs';
import { mcpConfigFile } from '../config/config-locations.js';
import { factoryDir } from '../../paths.js';

/** The `hooks` key most agents keep their events under (json-hooks.ts re-exports it). */
export const HOOKS_KEY = ['hooks'];

export interface HookSpec {
  /** The agent's event name. */
  event: string;
  baton: HookEvent;
  /** How long the agent waits for the hook, in its own unit: seconds (Gemini CLI, Letta Code: milliseconds). */
  timeout: number;
}

export interface AgentHookTarget {
  agent: AgentId;
  format: 'json' | 'yaml';
  file(environment: Environment): string;
  specs: HookSpec[];
  /** Parts that cannot be installed, and why (shown by `baton hooks status`). */
  unsupported: string[];
  /** JSON: where the events object is in `file` (default `["hooks"]`; `[]`: the file is the events object). */
  eventsAt?(file: string): string[];
}

/** Droid's user hooks: hooks.json when it exists (settings.json's hooks are then ignored), else settings.json. */
function droidHooksFile(environment: Environment): string {
  const hooksJson = path.join(factoryDir(environment), 'hooks.json');
  return fs.existsSync(hooksJson) ? hooksJson : path.join(factoryDir(environment), 'settings.json');
}

const CLAUDE_LIKE: HookSpec[] = [
  { event: 'SessionStart', baton: 'session-start', timeout: 10 },
  { event: 'PreCompact', baton: 'pre-compact', timeout: 30 },
  { event: 'Stop', baton: 'stop', timeout: 10 },
];

/** The two hooks the agents other than Claude Code and Codex get: session start, end of turn (`timeout` in the agent's unit). */
const startAndStop = (start: string, stop: string, timeout: number): HookSpec[] => [
  { event: start, baton: 'session-start', timeout },
  { event: stop, baton: 'stop', timeout },
];

/** Baton's pre-compaction checkpoint reads only Claude Code's and Codex's transcript records. */
const NO_PRECOMPACT = (agent: string, event: string): string =>
  `${event} checkpoint: ${agent} runs a ${event} hook, but Baton's automatic checkpoint before compaction reads only Claude Code's and Codex's transcript records so far; ${agent}'s own transcript is not decoded there, so no ${event} hook is installed.`;

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
    specs: startAndStop('pre_llm_call', 'on_session_end', 10),
    unsupported: [
      'PreCompact checkpoint: Hermes runs no shell hook before it compresses a conversation (its only compression event, session:compress, is a gateway hook that fires after compression, in-process Python).',
    ],
  },
  gemini: {
    agent: 'gemini',
    format: 'json',
    // The settings.json Baton's MCP registration edits as well (GEMINI_CLI_HOME moves it).
    file: (environment) => mcpConfigFile('gemini', environment),
    specs: startAndStop('SessionStart', 'AfterAgent', 10_000),
    unsupported: [NO_PRECOMPACT('Gemini CLI', 'PreCompress')],
  },
  qwen: {
    agent: 'qwen',
    format: 'json',
    file: (environment) => mcpConfigFile('qwen', environment),
    specs: startAndStop('SessionStart', 'Stop', 10),
    unsupported: [NO_PRECOMPACT('Qwen Code', 'PreCompact')],
  },
  copilot: {
    agent: 'copilot',
    format: 'json',
    // A file of Baton's own among Copilot's personal hook files: the user's settings stay untouched.
    file: ({ env, home }) => path.join(env.COPILOT_HOME || path.join(home, '.copilot'), 'hooks', 'baton.json'),
    specs: startAndStop('sessionStart', 'agentStop', 10),
    unsupported: [NO_PRECOMPACT('Copilot CLI', 'preCompact')],
  },
  droid: {
    agent: 'droid',
    format: 'json',
    file: droidHooksFile,
    eventsAt: (file) => (path.basename(file) === 'hooks.json' ? [] : HOOKS_KEY),
    specs: startAndStop('SessionStart', 'Stop', 10),
    unsupported: [NO_PRECOMPACT('Factory Droid', 'PreCompact')],
  },
  letta: {
    agent: 'letta',
    format: 'json',
    // The settings.json that also lists each agent's MCP servers.
    file: (environment) => mcpConfigFile('letta', environment),
    specs: startAndStop('SessionStart', 'Stop', 10_000),
    unsupported: [
      'Headless runs: `letta -p` runs no SessionStart hook (Letta Code 0.32 runs it in its interactive TUI only), so a pending handoff reaches an interactive Letta session.',
      NO_PRECOMPACT('Letta Code', 'PreCompact'),
    ],
  },
};

export const HOOK_AGENTS = Object.keys(HOOK_TARGETS) as AgentId[];
