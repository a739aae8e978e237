/**
 * Test support: a private copy of the real agent stores in `../shared/fixtures/home`, so tests
 * read real files without ever touching the originals (and SQLite stores keep their -wal/-shm).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { AGENTS, type AgentId, type Session } from '../shared/model.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

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

/**
 * The ground truth for the agents Baton reads: expected.json, plus the entries of
 * expected-next.json (agents whose readers are landing) for every agent in AGENTS. ../shared is
 * read-only, so an agent's entries are "moved" into the truth by adding the agent to AGENTS.
 */
export function expectedSessions(): ExpectedSession[] {
  const read = (name: string): ExpectedSession[] => {
    const file = path.join(fixturesDir(), name);
    return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as ExpectedSession[]) : [];
  };
  const known = new Set<string>(AGENTS);
  return [...read('expected.json'), ...read('expected-next.json').filter((s) => known.has(s.agent))];
}

export interface FixtureHome {
  home: string;
  /** Environment pointing HOME (and nothing else) at the copy; agent env vars cleared. */
  env: NodeJS.ProcessEnv;
  cleanup(): void;
}

/** Variables that move an agent's store (or Baton's data) away from HOME: a fixture home must not inherit them. */
export const STORE_ENV_KEYS = ['CLAUDE_CONFIG_DIR', 'CODEX_HOME', 'CODEX_SQLITE_HOME', 'XDG_DATA_HOME', 'XDG_CONFIG_HOME', 'OPENCODE_DB', 'HERMES_HOME', 'HERMES_DATA_DIR_SUFFIX', 'GEMINI_CLI_HOME', 'PI_CODING_AGENT_DIR', 'PI_CODING_AGENT_SESSION_DIR', 'QWEN_HOME', 'QWEN_RUNTIME_DIR', 'COPILOT_HOME', 'CONTINUE_GLOBAL_DIR', 'FACTORY_HOME_OVERRIDE', 'CLINE_DIR', 'CLINE_DATA_DIR', 'CLINE_SESSION_DATA_DIR'] as const;

/** `base` with HOME and BATON_HOME set and every STORE_ENV_KEYS variable removed. */
export function homeEnvironment(base: NodeJS.ProcessEnv, home: string, batonHome: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base, HOME: home, BATON_HOME: batonHome };
  for (const key of STORE_ENV_KEYS) delete env[key];
  return env;
}

/** Copies the fixture home into a fresh temp dir. */
export function makeFixtureHome(): FixtureHome {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'baton-home-'));
  const home = path.join(root, 'home');
  fs.cpSync(path.join(fixturesDir(), 'home'), home, { recursive: true, preserveTimestamps: true });
  const env = homeEnvironment(process.env, home, path.join(root, 'baton'));
  return { home, env, cleanup: () => fs.rmSync(root, { recursive: true, force: true }) };
}

/** An empty temp dir for tests that build their own stores. */
export function makeTempDir(prefix = 'baton-test-'): { dir: string; cleanup(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Requires `sessions` to hold exactly the agent's sessions of expected.json, each with the listed
 * facts (tool names compared as sets: expected.json sorts them, adapters keep first-use order).
 */
export function expectRecovered(agent: AgentId, sessions: ReadonlyMap<string, Session>): ExpectedSession[] {
  const expected = expectedSessions().filter((s) => s.agent === agent);
  expect(expected.length).toBeGreaterThan(0);
  expect([...sessions.keys()].sort()).toEqual(expected.map((e) => `${agent}:${e.id}`).sort());
  for (const e of expected) {
    const s = sessions.get(`${agent}:${e.id}`)!;
    const got = { nativeId: s.nativeId, cwd: s.cwd, gitBranch: s.gitBranch, firstPrompt: s.firstPrompt, userTurns: s.userTurns, toolNames: [...s.toolNames].sort(), title: s.title, parentId: s.parentId };
    const want = { nativeId: e.id, cwd: e.cwd, gitBranch: e.gitBranch, firstPrompt: e.firstPrompt, userTurns: e.userTurns, toolNames: [...e.toolNames].sort(), title: e.title, parentId: e.parentId ? `${agent}:${e.parentId}` : null };
    expect(got, e.id).toEqual(want);
  }
  return expected;
}

/** sha256 of every file below `dir`, by absolute path: "reading never writes" checks. */
export function sha256Tree(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    out.set(full, createHash('sha256').update(fs.readFileSync(full)).digest('hex'));
  }
  return out;
}
