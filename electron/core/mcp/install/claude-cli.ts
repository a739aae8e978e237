/**
 * Registering through Claude Code's own CLI (`claude mcp add -s user`) when it is installed: the
 * CLI serialises its writes with a running Claude, which rewrites ~/.claude.json often.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { bearer, type McpEndpoint } from './endpoint.js';

export function findOnPath(command: string, env: NodeJS.ProcessEnv): string | null {
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, command);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

export function claudeAddArgs(endpoint: McpEndpoint): string[] {
  return ['mcp', 'add', '--transport', 'http', '--scope', 'user', endpoint.name, endpoint.url, '--header', `Authorization: ${bearer(endpoint)}`];
}

/** Runs `claude mcp remove` (ignoring "not found") then `claude mcp add`; throws with the CLI's stderr on failure. */
export function registerWithClaudeCli(claude: string, endpoint: McpEndpoint, env: NodeJS.ProcessEnv): void {
  try {
    execFileSync(claude, ['mcp', 'remove', '--scope', 'user', endpoint.name], { env, stdio: 'pipe', timeout: 30_000 });
  } catch {
    // nothing registered yet
  }
  execFileSync(claude, claudeAddArgs(endpoint), { env, stdio: 'pipe', timeout: 30_000 });
}

export function unregisterWithClaudeCli(claude: string, name: string, env: NodeJS.ProcessEnv): void {
  execFileSync(claude, ['mcp', 'remove', '--scope', 'user', name], { env, stdio: 'pipe', timeout: 30_000 });
}
