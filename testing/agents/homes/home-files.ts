/**
 * What every throw-away agent HOME is made of: the agent's config files, written at the home's first
 * use only (a later call keeps what the agent or the test changed since), and the environment every
 * real CLI runs with.
 */
import fs from 'node:fs';
import path from 'node:path';

/** Writes `file` (and its folder) unless it exists; `content` is made only when it is written. */
export function writeOnce(file: string, content: () => string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  if (!fs.existsSync(file)) fs.writeFileSync(file, content());
}

/** JSON as the agents' own config files are written: two-space indented. */
export function json(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

/** The throw-away HOME, the test's PATH and a UTF-8 terminal, plus the agent's own variables. */
export function baseAgentEnv(home: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { HOME: home, PATH: process.env.PATH, TERM: 'xterm-256color', LANG: 'C.UTF-8', ...extra };
}
