/**
 * Test support: the real adapters for a given environment (e.g. a fixture home's env).
 */
import type { SourceAdapter } from '../sources/types.js';
import { defaultStoreRoots, type Environment } from '../paths.js';
import { createClaudeAdapter } from '../sources/claude/claude-adapter.js';
import { createCodexAdapter } from '../sources/codex/codex-adapter.js';
import { createOpenCodeAdapter } from '../sources/opencode/index.js';
import { createHermesAdapter } from '../sources/hermes/index.js';

export function environmentOf(env: NodeJS.ProcessEnv): Environment {
  return { env, platform: process.platform, home: env.HOME! };
}

export function fixtureAdapters(env: NodeJS.ProcessEnv): SourceAdapter[] {
  const e = environmentOf(env);
  return [
    createClaudeAdapter(defaultStoreRoots('claude', e)),
    createCodexAdapter(defaultStoreRoots('codex', e)),
    createOpenCodeAdapter(defaultStoreRoots('opencode', e)),
    createHermesAdapter(defaultStoreRoots('hermes', e)),
  ];
}
