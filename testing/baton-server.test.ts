/**
 * The e2e server reads the fixture home it was given, whatever the environment the suite runs in
 * says about agent stores (CI flaked when CODEX_HOME, GEMINI_CLI_HOME… of the runner's own agents
 * reached `baton serve`: their stores "missing", Claude's "empty", the session list empty).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import type { HealthInfo } from '../shared/api-types.js';
import { AGENTS } from '../shared/model.js';
import { expectedSessions, makeFixtureHome, makeTempDir, STORE_ENV_KEYS } from './fixture-home.js';
import { startBatonServer, type BatonServer } from './baton-server.js';

const saved = new Map<string, string | undefined>();
let server: BatonServer | null = null;
const cleanups: (() => void)[] = [];

afterEach(async () => {
  await server?.stop();
  server = null;
  for (const [key, value] of saved) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  saved.clear();
  for (const c of cleanups.splice(0)) c();
});

it('indexes every fixture session even when the suite runs with agent store variables set', async () => {
  // The runner's own agents, with stores elsewhere (one empty Claude dir, the rest absent).
  const elsewhere = makeTempDir('baton-runner-agents-');
  cleanups.push(elsewhere.cleanup);
  fs.mkdirSync(path.join(elsewhere.dir, 'claude', 'projects'), { recursive: true });
  for (const key of STORE_ENV_KEYS) {
    saved.set(key, process.env[key]);
    process.env[key] = key === 'CLAUDE_CONFIG_DIR' ? path.join(elsewhere.dir, 'claude') : path.join(elsewhere.dir, 'absent', key);
  }
  const fixture = makeFixtureHome();
  cleanups.push(fixture.cleanup);

  server = await startBatonServer({ home: fixture.home, batonHome: fixture.env.BATON_HOME!, env: fixture.env });
  const want = expectedSessions().filter((s) => (AGENTS as readonly string[]).includes(s.agent)).length;
  let health: HealthInfo | null = null;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    health = (await (await fetch(`${server.url}/health`)).json()) as HealthInfo;
    if (health.index.sessions >= want && ['idle', 'watching'].includes(health.index.phase)) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  expect(health?.index.sessions, server.output()).toBe(want);
});
