/**
 * The real agent CLIs, installed from npm at pinned versions into a cache outside the repo
 * (`$BATON_AGENT_CACHE`, default `~/.cache/baton-agents`), once per version, shared by every test
 * run on the machine. A package that cannot be installed yields the reason (`ok: false`), and a
 * test that needs it fails with that reason (`requireCli`): no real-agent test is ever skipped.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

export const AGENT_CLIS = {
  claude: { pkg: '@anthropic-ai/claude-code', version: '2.1.330', bin: 'claude' },
  codex: { pkg: '@openai/codex', version: '0.169.0', bin: 'codex' },
  opencode: { pkg: 'opencode-ai', version: '1.18.33', bin: 'opencode' },
  gemini: { pkg: '@google/gemini-cli', version: '0.61.0', bin: 'gemini' },
  qwen: { pkg: '@qwen-code/qwen-code', version: '0.24.4', bin: 'qwen' },
  pi: { pkg: '@mariozechner/pi-coding-agent', version: '0.73.1', bin: 'pi' },
  // 7.7.7: the newest whose linux-x64 binary package the registry here serves (MANIFEST, Kilo section).
  kilo: { pkg: '@kilocode/cli', version: '7.7.7', bin: 'kilo' },
  copilot: { pkg: '@github/copilot', version: '1.0.102', bin: 'copilot' },
  continue: { pkg: '@continuedev/cli', version: '1.5.47', bin: 'cn' },
  // The npm `cline` bin is a Node resolver that execs the Bun binary shipped in @cline/cli-linux-x64.
  cline: { pkg: 'cline', version: '3.0.65', bin: 'cline' },
  // The wrapper only resolves its platform's binary package, and the registry here has no matching
  // pair (wrapper 0.225.1, binary 0.225.2: `droid --version` says 0.225.2; MANIFEST, Droid section).
  droid: { pkg: '@factory/cli', version: '0.225.1', bin: 'droid', also: ['@factory/cli-linux-x64@0.225.2'] },
  // Installed from its packed tarball (PACKED_INSTALLS): two of its declared deps are not on the registry.
  letta: { pkg: '@letta-ai/letta-code', version: '0.32.18', bin: 'letta' },
  ccusage: { pkg: 'ccusage', version: '20.0.24', bin: 'ccusage' },
} as const satisfies Record<string, CliPackage>;

/** A pinned npm package with its binary; `also`: packages (`name@version`, pinned) installed beside it. */
interface CliPackage {
  pkg: string;
  version: string;
  bin: string;
  also?: readonly string[];
}

export type AgentCliName = keyof typeof AGENT_CLIS;

/**
 * CLIs whose `npm install` cannot resolve (a declared dependency the registry does not serve) but
 * whose package is one self-contained bundle: installed as `npm pack` of the pinned version, unpacked
 * into node_modules, plus the few packages the bundle really imports (pinned too), and `main` linked
 * as the bin. Letta Code 0.32.18: `@letta-ai/letta-agent-sdk` and `@letta-ai/trajectory` 404; its
 * `letta.js` imports only `ws`, `node-pty` and `ajv` (MANIFEST.md, Letta section).
 */
const PACKED_INSTALLS: Partial<Record<AgentCliName, { main: string; deps: readonly string[] }>> = {
  letta: { main: 'letta.js', deps: ['ws@8.23.0', 'node-pty@1.1.0', 'ajv@8.20.0'] },
};

export type AgentCli = { ok: true; name: AgentCliName; bin: string; version: string } | { ok: false; name: AgentCliName; skip: string };

/**
 * A test's CLI must be there: the pinned packages install from the npm registry this machine and CI
 * reach, so one that cannot be installed fails the test with the reason (a skipped test proves nothing).
 */
export function requireCli(cli: AgentCli): asserts cli is Extract<AgentCli, { ok: true }> {
  if (!cli.ok) throw new Error(`${cli.name} is not available: ${cli.skip}`);
}

export function agentCacheDir(): string {
  return process.env.BATON_AGENT_CACHE ?? path.join(os.homedir(), '.cache', 'baton-agents');
}

const pending = new Map<AgentCliName, Promise<AgentCli>>();

/** Installs (or finds) the pinned CLI. Safe to call from several test files at once: a lock dir guards the install. */
export function ensureAgentCli(name: AgentCliName): Promise<AgentCli> {
  let p = pending.get(name);
  if (!p) {
    p = install(name);
    pending.set(name, p);
  }
  return p;
}

async function install(name: AgentCliName): Promise<AgentCli> {
  const entry: CliPackage = AGENT_CLIS[name];
  const { pkg, version, bin } = entry;
  const dir = path.join(agentCacheDir(), `${name}@${version}`);
  const binPath = path.join(dir, 'node_modules', '.bin', bin);
  const done = path.join(dir, '.installed');
  if (fs.existsSync(done) && fs.existsSync(binPath)) return { ok: true, name, bin: binPath, version };

  fs.mkdirSync(agentCacheDir(), { recursive: true });
  const lock = `${dir}.lock`;
  const deadline = Date.now() + 10 * 60_000;
  for (;;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch {
      // Another process installs it: wait for it, then use what it installed.
      if (fs.existsSync(done) && fs.existsSync(binPath)) return { ok: true, name, bin: binPath, version };
      if (Date.now() > deadline) return { ok: false, name, skip: `${pkg}@${version}: install lock ${lock} held for 10 minutes` };
      // A lock older than 15 minutes belongs to a process that died.
      try {
        if (Date.now() - fs.statSync(lock).mtimeMs > 15 * 60_000) fs.rmSync(lock, { recursive: true, force: true });
      } catch {
        /* gone meanwhile */
      }
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  try {
    if (fs.existsSync(done) && fs.existsSync(binPath)) return { ok: true, name, bin: binPath, version };
    fs.mkdirSync(dir, { recursive: true });
    const packed = PACKED_INSTALLS[name];
    if (packed) await installPacked(dir, pkg, version, bin, packed);
    else await npm(['install', '--prefix', dir, `${pkg}@${version}`, ...(entry.also ?? []), '--no-audit', '--no-fund', '--loglevel=error']);
    if (!fs.existsSync(binPath)) return { ok: false, name, skip: `${pkg}@${version} installed but has no ${bin} binary` };
    fs.writeFileSync(done, new Date().toISOString());
    return { ok: true, name, bin: binPath, version };
  } catch (err) {
    const message = err instanceof Error ? err.message.split('\n').slice(0, 3).join(' ') : String(err);
    return { ok: false, name, skip: `${pkg}@${version} could not be installed from npm: ${message}` };
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

function npm(args: string[], cwd?: string): Promise<{ stdout: string }> {
  return execFileAsync('npm', args, {
    ...(cwd ? { cwd } : {}),
    env: { ...process.env, npm_config_update_notifier: 'false' },
    timeout: 8 * 60_000,
    maxBuffer: 16 * 1024 * 1024,
  });
}

async function installPacked(dir: string, pkg: string, version: string, bin: string, packed: { main: string; deps: readonly string[] }): Promise<void> {
  await npm(['install', '--prefix', dir, ...packed.deps, '--no-audit', '--no-fund', '--loglevel=error']);
  const { stdout } = await npm(['pack', `${pkg}@${version}`, '--pack-destination', dir, '--loglevel=error'], dir);
  const tarball = path.join(dir, stdout.trim().split('\n').at(-1) ?? '');
  const target = path.join(dir, 'node_modules', ...pkg.split('/'));
  fs.rmSync(target, { recursive: true, force: true });
  fs.mkdirSync(target, { recursive: true });
  // npm tarballs hold everything under `package/`.
  await execFileAsync('tar', ['-xzf', tarball, '-C', target, '--strip-components=1']);
  fs.rmSync(tarball, { force: true });
  const binDir = path.join(dir, 'node_modules', '.bin');
  fs.mkdirSync(binDir, { recursive: true });
  fs.rmSync(path.join(binDir, bin), { force: true });
  fs.symlinkSync(path.relative(binDir, path.join(target, packed.main)), path.join(binDir, bin));
  fs.chmodSync(path.join(target, packed.main), 0o755);
}
