/**
 * Test support: a private copy of the real agent stores in `../shared/fixtures/home`, so tests
 * read real files without ever touching the originals (and SQLite stores keep their -wal/-shm).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AgentId } from '../../../shared/model.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export function fixturesDir(): string {
  return process.env.BATON_FIXTURES ?? path.resolve(repoRoot, '..', 'shared', 'fixtures');
}

export interface ExpectedSession {
  agent: AgentId;
  id: string;
  cwd: string | null;
  gitBranch: string | null;
  firstPrompt: string | null;
  userTurns: number;
  toolNames: string[];
  title: string | null;
  parentId: string | null;
  isSubagent: boolean;
  hasSecrets: boolean;
  secretKinds: string[];
  containsTokens: string[];
  files: string[];
}

export function expectedSessions(): ExpectedSession[] {
  return JSON.parse(fs.readFileSync(path.join(fixturesDir(), 'expected.json'), 'utf8')) as ExpectedSession[];
}

export interface FixtureHome {
  home: string;
  /** Environment pointing HOME (and nothing else) at the copy; agent env vars cleared. */
  env: NodeJS.ProcessEnv;
  cleanup(): void;
}

/** Copies the fixture home into a fresh temp dir. */
export function makeFixtureHome(): FixtureHome {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'baton-home-'));
  const home = path.join(root, 'home');
  fs.cpSync(path.join(fixturesDir(), 'home'), home, { recursive: true, preserveTimestamps: true });
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, BATON_HOME: path.join(root, 'baton') };
  for (const key of ['CLAUDE_CONFIG_DIR', 'CODEX_HOME', 'CODEX_SQLITE_HOME', 'XDG_DATA_HOME', 'XDG_CONFIG_HOME', 'OPENCODE_DB', 'HERMES_HOME', 'GEMINI_CLI_HOME', 'PI_CODING_AGENT_DIR', 'PI_CODING_AGENT_SESSION_DIR']) {
    delete env[key];
  }
  return { home, env, cleanup: () => fs.rmSync(root, { recursive: true, force: true }) };
}

/** An empty temp dir for tests that build their own stores. */
export function makeTempDir(prefix = 'baton-test-'): { dir: string; cleanup(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
