/**
 * The README's first command, as a new user runs it: `npm install && npm start` in a clean clone,
 * with the system's own node/npm first on PATH (not the project's Node 22 that this test runs on),
 * no display, and a home holding the fixture stores of all seven agents. npm's cache is the user's
 * (what `npm ci` of the checkout filled), so the install works offline.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENTS } from '../../shared/model.js';
import type { HealthInfo } from '../../shared/api-types.js';
import { freePort } from '../../testing/baton-server.js';
import { expectedSessions, makeFixtureHome, type FixtureHome } from '../../testing/fixture-home.js';
import { startGroup, type GroupProcess } from '../../testing/process-group.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The environment of the user's shell: no project Node on PATH, nothing from the npm/vitest running this test. */
function userEnvironment(base: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(base)) {
    if (/^(npm_|vitest|VITE_)/i.test(key) || ['NODE_ENV', 'NODE_OPTIONS', 'TEST', 'DISPLAY', 'WAYLAND_DISPLAY', 'BATON_HEADLESS'].includes(key)) continue;
    env[key] = value;
  }
  env.PATH = (base.PATH ?? '').split(path.delimiter).filter((dir) => !dir.split(path.sep).includes('node_modules')).join(path.delimiter);
  return env;
}

/** Packages npm printed an EBADENGINE warning for. */
function engineWarnings(output: string): string[] {
  return [...output.matchAll(/EBADENGINE\s+package: '([^']+)'/g)].map((m) => m[1]!);
}

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, timeoutMs: number): { status: number | null; output: string } {
  const r = spawnSync(command, args, { cwd, env, encoding: 'utf8', timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 });
  return { status: r.status, output: `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? `\n${r.error.message}` : ''}` };
}

/** The first index pass is over (serve keeps watching afterwards). */
function settled(h: HealthInfo): boolean {
  return h.index.phase === 'idle' || h.index.phase === 'watching';
}

/** `npx baton` in a checkout links it into npx's cache (~/.npm/_npx/<hash>); drop that entry with the clone. */
function forgetNpxInstall(dir: string): void {
  const npxCache = path.join(os.homedir(), '.npm', '_npx');
  for (const entry of fs.existsSync(npxCache) ? fs.readdirSync(npxCache) : []) {
    // The link npx made (present even when a run was cut short before it wrote package.json).
    const link = path.join(npxCache, entry, 'node_modules', 'baton');
    const target = fs.lstatSync(link, { throwIfNoEntry: false })?.isSymbolicLink() ? path.resolve(path.dirname(link), fs.readlinkSync(link)) : null;
    if (target === dir) fs.rmSync(path.join(npxCache, entry), { recursive: true, force: true });
  }
}

async function health(url: string): Promise<HealthInfo | null> {
  try {
    const res = await fetch(`${url}/health`);
    return res.ok ? ((await res.json()) as HealthInfo) : null;
  } catch {
    return null;
  }
}

describe('npm install && npm start in a fresh clone (README)', () => {
  let tmp: string;
  let clone: string;
  let fixture: FixtureHome;
  let userEnv: NodeJS.ProcessEnv;
  let installOutput = '';
  let started: GroupProcess | null = null;

  beforeAll(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'baton-fresh-clone-'));
    clone = path.join(tmp, 'baton');
    userEnv = userEnvironment(process.env);
    // The committed HEAD of this checkout (a worktree's clone would check out the main branch otherwise).
    const head = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: repoRoot, encoding: 'utf8' }).stdout.trim();
    expect(run('git', ['clone', '-q', '--no-checkout', repoRoot, clone], tmp, userEnv, 60_000).status).toBe(0);
    expect(run('git', ['checkout', '-q', '--detach', head], clone, userEnv, 60_000).status).toBe(0);
    fixture = makeFixtureHome();
  });

  afterAll(async () => {
    await started?.stop();
    fixture?.cleanup();
    if (tmp) {
      forgetNpxInstall(clone);
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });

  it('npm install succeeds, leaves the clone as checked out (lock unchanged) and warns about no engine of Baton', () => {
    const install = run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund'], clone, userEnv, 240_000);
    installOutput = install.output;
    expect(install.status, install.output).toBe(0);
    expect(run('git', ['status', '--porcelain'], clone, userEnv, 30_000).output).toBe('');
    // npm judges dependencies by the Node it runs on (the system's); the project's .npmrc keeps those false alarms quiet.
    expect(engineWarnings(install.output)).toEqual([]);
    expect(install.output).not.toMatch(/^npm warn/m);
  });

  it('npx baton --help runs on the project Node without an engine warning', () => {
    expect(installOutput, 'npm install must have run first').not.toBe('');
    // The first npx run in a checkout installs it into npx's cache (a link): slow on a busy machine.
    const help = run('npx', ['baton', '--help'], clone, userEnv, 180_000);
    expect(help.status, help.output).toBe(0);
    expect(help.output).toMatch(/^Usage: baton/m);
    expect(engineWarnings(help.output)).toEqual([]);
  });

  it('bin/baton.mjs on the system Node (an `npm link`ed baton) runs, or says the Node is too old and stops', () => {
    expect(installOutput, 'npm install must have run first').not.toBe('');
    const version = run('node', ['-p', 'process.versions.node'], clone, userEnv, 30_000).output.trim();
    const [major = 0, minor = 0] = version.split('.').map(Number);
    const direct = run('node', ['bin/baton.mjs', '--help'], clone, userEnv, 60_000);
    if (major > 22 || (major === 22 && minor >= 12)) {
      expect(direct.status, direct.output).toBe(0);
      expect(direct.output).toMatch(/^Usage: baton/m);
    } else {
      // Before: a named import of enableCompileCache (Node ≥ 22.1) failed to load with a SyntaxError.
      expect(direct.status, direct.output).toBe(1);
      expect(direct.output).toContain(`baton: Node ${version} is too old; Baton needs Node >= 22.12.`);
      expect(direct.output).not.toMatch(/SyntaxError/);
    }
  });

  it('npm start without a display says why in one line, prints the login link and indexes every fixture session', async () => {
    expect(installOutput, 'npm install must have run first').not.toBe('');
    const batonHome = fixture.env.BATON_HOME!;
    const port = await freePort();
    // A user's setting, so this test never fights another Baton for the default port 8765.
    fs.mkdirSync(batonHome, { recursive: true });
    fs.writeFileSync(path.join(batonHome, 'settings.json'), JSON.stringify({ port }));
    const env: NodeJS.ProcessEnv = { ...userEnvironment(fixture.env), npm_config_cache: path.join(os.homedir(), '.npm') };

    started = startGroup('npm', ['start'], { cwd: clone, env });
    const [login] = await started.waitFor(/http:\/\/127\.0\.0\.1:(\d+)\/login\?\S+/, 150_000);
    expect(login).toContain(`127.0.0.1:${port}/login?`);
    const output = started.output();
    const reasons = output.split('\n').filter((l) => l.startsWith('Baton: starting headless because'));
    expect(reasons).toEqual(['Baton: starting headless because there is no display (DISPLAY and WAYLAND_DISPLAY are unset).']);
    expect(output).not.toMatch(/Cannot find module|Error:/);
    expect(engineWarnings(output)).toEqual([]);

    const want = expectedSessions().filter((s) => (AGENTS as readonly string[]).includes(s.agent)).length;
    expect(want).toBeGreaterThan(40);
    let last: HealthInfo | null = null;
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      last = await health(`http://127.0.0.1:${port}`);
      if (last?.index.sessions === want && settled(last)) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(last, started.output()).toMatchObject({ ok: true, name: 'baton', index: { sessions: want } });
    expect(settled(last!), JSON.stringify(last)).toBe(true);
  });
});
