/**
 * Test support: the real adapters (through the sources registry) for a given environment, e.g. a
 * fixture home's env.
 */
import { AGENTS } from '../shared/model.js';
import type { SourceAdapter } from '../electron/core/sources/types.js';
import type { Environment } from '../electron/core/paths.js';
import { createAdapters, type SourcesConfig } from '../electron/core/ingest/registry.js';

export function environmentOf(env: NodeJS.ProcessEnv): Environment {
  return { env, platform: process.platform, home: env.HOME! };
}

export function allAgentsConfig(): SourcesConfig {
  return { agents: Object.fromEntries(AGENTS.map((a) => [a, { enabled: true, path: null }])) as SourcesConfig['agents'] };
}

export function fixtureAdapters(env: NodeJS.ProcessEnv): SourceAdapter[] {
  return createAdapters(allAgentsConfig(), environmentOf(env));
}
