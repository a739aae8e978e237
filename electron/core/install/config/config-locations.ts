/**
 * Where each agent keeps the configuration file that lists its MCP servers, honouring the same
 * environment overrides the agents honour (reference §2.8, §3.8, §4.7, §5.8). Pure function of the
 * environment so tests can point it at a temp home.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { AgentId } from '../../../../shared/model.js';
import { expandTilde, factoryDir, type Environment } from '../../paths.js';

export function mcpConfigFile(agent: AgentId, environment: Environment): string {
  const { env, home } = environment;
  switch (agent) {
    case 'claude':
      // User-scope servers live in .claude.json, which moves into CLAUDE_CONFIG_DIR when it is set.
      return env.CLAUDE_CONFIG_DIR
        ? path.join(env.CLAUDE_CONFIG_DIR.split(',')[0]!.trim(), '.claude.json')
        : path.join(home, '.claude.json');
    case 'codex':
      return path.join(env.CODEX_HOME || path.join(home, '.codex'), 'config.toml');
    case 'opencode': {
      if (env.OPENCODE_CONFIG) return env.OPENCODE_CONFIG;
      const dir = opencodeConfigDir({ env, home });
      // Prefer whichever file the user already has; a fresh install gets plain JSON.
      for (const name of ['opencode.jsonc', 'opencode.json']) {
        if (fs.existsSync(path.join(dir, name))) return path.join(dir, name);
      }
      return path.join(dir, 'opencode.json');
    }
    case 'hermes':
      return path.join(env.HERMES_HOME || path.join(home, '.hermes'), 'config.yaml');
    case 'gemini':
      return path.join(env.GEMINI_CLI_HOME || home, '.gemini', 'settings.json');
    case 'qwen':
      // User settings live in QWEN_HOME when it is set (not in QWEN_RUNTIME_DIR, which holds sessions).
      return path.join(env.QWEN_HOME ? expandTilde(env.QWEN_HOME, home) : path.join(home, '.qwen'), 'settings.json');
    case 'pi':
      // pi has no MCP client; Baton's pi extension lives in its extensions folder.
      return path.join(env.PI_CODING_AGENT_DIR || path.join(home, '.pi', 'agent'), 'extensions', 'baton.ts');
    case 'cline':
      // Cline CLI 3.0's own order: CLINE_MCP_SETTINGS_PATH, else <data dir>/settings (the data dir as
      // for its sessions: CLINE_DATA_DIR, else CLINE_DIR/data, else ~/.cline/data).
      if (env.CLINE_MCP_SETTINGS_PATH?.trim()) return env.CLINE_MCP_SETTINGS_PATH.trim();
      return path.join(env.CLINE_DATA_DIR?.trim() || path.join(env.CLINE_DIR?.trim() || path.join(home, '.cline'), 'data'), 'settings', 'cline_mcp_settings.json');
    case 'kilo':
      // Kilo Code reads ~/.config/kilo/kilo.json (OpenCode's `mcp` entries).
      return path.join(kiloConfigDir({ env, home }), 'kilo.json');
    case 'copilot':
      // Copilot CLI's user-level MCP servers (config dir reference), in COPILOT_HOME when set.
      return path.join(env.COPILOT_HOME || path.join(home, '.copilot'), 'mcp-config.json');
    case 'continue':
      // cn's local config lists its MCP servers (`mcpServers`); cn reads it whenever it exists.
      return path.join(env.CONTINUE_GLOBAL_DIR || path.join(home, '.continue'), 'config.yaml');
    case 'droid':
      // Droid's user-level MCP servers (what `droid mcp add` writes).
      return path.join(factoryDir(environment), 'mcp.json');
    case 'letta':
      // Letta Code's settings: its client-side MCP servers are listed per agent (edit-letta-settings.ts).
      return path.join(home, '.letta', 'settings.json');
  }
}

export function opencodeConfigDir({ env, home }: Pick<Environment, 'env' | 'home'>): string {
  return path.join(env.XDG_CONFIG_HOME || path.join(home, '.config'), 'opencode');
}

/** Global plugin folder: files here are loaded by OpenCode at startup. */
export function opencodePluginFile(environment: Pick<Environment, 'env' | 'home'>): string {
  return path.join(opencodeConfigDir(environment), 'plugins', 'baton.js');
}

/** Kilo Code's global config folder (`kilo debug paths`: config), where kilo.json lives. */
export function kiloConfigDir({ env, home }: Pick<Environment, 'env' | 'home'>): string {
  return path.join(env.XDG_CONFIG_HOME || path.join(home, '.config'), 'kilo');
}

/** Kilo Code 7.7 loads `{plugin,plugins}/*.{ts,js}` of each config folder at startup, as OpenCode does. */
export function kiloPluginFile(environment: Pick<Environment, 'env' | 'home'>): string {
  return path.join(kiloConfigDir(environment), 'plugins', 'baton.js');
}
