/**
 * Codex reads an MCP server's bearer token from an environment variable (`bearer_token_env_var`)
 * and loads `$CODEX_HOME/.env` into its environment at start-up. So config.toml names the variable
 * and the token lives in that `.env` (mode 0600), Codex's own place for secrets: the config file
 * people share and sync holds none. Only Baton's line is ever touched.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Environment } from '../../paths.js';

export const CODEX_TOKEN_VAR = 'BATON_MCP_TOKEN';

export function codexEnvFile({ env, home }: Pick<Environment, 'env' | 'home'>): string {
  return path.join(env.CODEX_HOME || path.join(home, '.codex'), '.env');
}

const OURS = new RegExp(`^\\s*(?:export\\s+)?${CODEX_TOKEN_VAR}\\s*=`);

export function codexEnvWith(text: string, token: string): string {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const line = `${CODEX_TOKEN_VAR}=${token}`;
  const lines = text === '' ? [] : text.split(/\r?\n/);
  const at = lines.findIndex((l) => OURS.test(l));
  if (at >= 0) {
    if (lines[at] === line) return text;
    lines[at] = line;
    return lines.join(eol);
  }
  const prefix = text === '' || text.endsWith('\n') ? text : text + eol;
  return `${prefix}${line}${eol}`;
}

export function codexEnvWithout(text: string): string {
  const lines = text.split(/(?<=\n)/);
  const kept = lines.filter((l) => !OURS.test(l));
  return kept.length === lines.length ? text : kept.join('');
}

export function codexEnvHolds(text: string | null, token: string): boolean {
  return text !== null && text.split(/\r?\n/).some((l) => l === `${CODEX_TOKEN_VAR}=${token}`);
}

export function readCodexEnv(environment: Pick<Environment, 'env' | 'home'>): string | null {
  try {
    return fs.readFileSync(codexEnvFile(environment), 'utf8');
  } catch {
    return null;
  }
}

/** Whether the text has Baton's variable line (with any token). */
export function codexEnvHasLine(text: string): boolean {
  return text.split(/\r?\n/).some((l) => OURS.test(l));
}
