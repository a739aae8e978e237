import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENTS, type AgentId, type Session } from '../../../shared/model.js';
import type { BriefResult } from '../../../shared/api-types.js';
import { hostProbe, openInAgent, type OpenInAgentDeps } from './open-in-agent.js';
import { BRIEF_FILE_MAX_AGE_MS, sweepOldBriefs, writeBriefFile } from './brief-file.js';
import { AGENT_PROMPT_ARGS } from './agent-command.js';

const BRIEF = `# Handoff: it's "tricky"\n\nRun \`npm test\` then $(rm -rf /) — never; keep $HOME and \\backslashes\\.\n- next: ship 日本\n`;

let root: string;
let stubBin: string;
let records: string;
let home: string;

/** A stand-in agent CLI: records its cwd and argv (NUL-separated) to `<records>/<name>.args`. */
function installStandIn(name: string) {
  const file = path.join(stubBin, name);
  fs.writeFileSync(file, `#!/bin/sh\nprintf '%s\\0' "$(pwd)" "$@" > "$BATON_TEST_RECORDS/${name}.args"\n`, { mode: 0o755 });
}

function readRecord(name: string): string[] | null {
  const file = path.join(records, `${name}.args`);
  if (!fs.existsSync(file)) return null;
  return fs.readFileSync(file, 'utf8').split('\0').slice(0, -1);
}

function session(cwd: string | null): Session {
  return {
    id: 'codex:abc', agent: 'codex', nativeId: 'abc', title: 't', cwd, gitBranch: null, gitCommit: null, model: null,
    startedAt: null, updatedAt: null, firstPrompt: null, userTurns: 1, messageCount: 2, toolNames: [],
    usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0 }, parentId: null, sourcePath: '/x', bytes: 1,
  };
}

function deps(env: NodeJS.ProcessEnv, cwd: string | null, seen: unknown[] = []): OpenInAgentDeps {
  return {
    getSession: async (input) => {
      seen.push(input);
      return session(cwd);
    },
    generateBrief: async (input) => {
      seen.push(input);
      const result: BriefResult = {
        sessionId: input.session, target: input.target ?? 'generic', format: input.format, text: BRIEF, tokens: 40,
        budget: 6000, redactions: {}, redacted: true, openCommand: null,
      };
      return result;
    },
    probe: hostProbe('linux', env, home),
    briefDir: path.join(root, 'briefs'),
  };
}

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'baton-open-'));
  stubBin = path.join(root, 'bin');
  records = path.join(root, 'records');
  home = path.join(root, 'home');
  for (const dir of [stubBin, records, home]) fs.mkdirSync(dir);
  // Stand-ins by executable name (Continue's is `cn`).
  for (const agent of AGENTS) installStandIn(AGENT_PROMPT_ARGS[agent].bin);
});

afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('openInAgent without a terminal', () => {
  it.each(AGENTS)('returns a command that, pasted into sh, starts %s in the cwd with the brief verbatim', async (agent: AgentId) => {
    const cwd = path.join(root, `it's a "project" ${agent}`);
    fs.mkdirSync(cwd);
    // PATH holds only the stand-ins: no terminal is found, nothing is launched.
    const seen: unknown[] = [];
    const result = await openInAgent(deps({ PATH: stubBin }, cwd, seen), { session: 'abc', target: agent });
    expect(result.launched).toBe(false);
    expect(result.error).toMatch(/No terminal found/);
    expect(seen[1]).toMatchObject({ session: 'codex:abc', target: agent, format: 'md', redact: true });

    execFileSync('sh', ['-c', result.command], { env: { PATH: `${stubBin}:/usr/bin:/bin`, BATON_TEST_RECORDS: records } });
    const [recordedCwd, ...argv] = readRecord(AGENT_PROMPT_ARGS[agent].bin) ?? [];
    expect(recordedCwd).toBe(cwd);
    const expectedPrefix = { claude: [], codex: [], opencode: ['--prompt'], hermes: ['chat', '-q'], gemini: ['-i'], qwen: ['-i'], pi: [], cline: ['-i'], kilo: ['--prompt'], copilot: ['-i'], continue: [], droid: [], letta: null }[agent];
    if (expectedPrefix === null) {
      // Letta Code's TUI takes no first prompt (a positional is a subcommand): a new conversation, the brief to paste.
      expect(argv).toEqual(['--new']);
      expect(result.pasteBrief).toBe(true);
      return;
    }
    // $(cat) drops trailing newlines, as every shell does.
    expect(argv).toEqual([...expectedPrefix, BRIEF.replace(/\n+$/, '')]);
    expect(result.pasteBrief).toBeUndefined();
  });

  it('opens in the home directory when the session’s cwd is gone', async () => {
    const result = await openInAgent(deps({ PATH: stubBin }, path.join(root, 'deleted')), { session: 'abc', target: 'claude' });
    expect(result.command.startsWith(`cd '${home}' && `)).toBe(true);
  });
});

describe('brief files', () => {
  it('are private and swept after a day', () => {
    const dir = path.join(root, 'sweep');
    const old = writeBriefFile('old', 'claude', dir);
    const stamp = (Date.now() - BRIEF_FILE_MAX_AGE_MS - 60_000) / 1000;
    fs.utimesSync(old, stamp, stamp);
    const fresh = writeBriefFile('fresh', 'codex', dir);
    expect(fs.statSync(fresh).mode & 0o777).toBe(0o600);
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    expect(fs.existsSync(old)).toBe(false);
    expect(sweepOldBriefs(dir)).toBe(0);
    expect(fs.readFileSync(fresh, 'utf8')).toBe('fresh');
  });

  it('tighten a loose directory and refuse a symlink planted in its place', () => {
    const loose = path.join(root, 'loose');
    fs.mkdirSync(loose, { mode: 0o777 });
    fs.chmodSync(loose, 0o777);
    writeBriefFile('x', 'claude', loose);
    expect(fs.statSync(loose).mode & 0o777).toBe(0o700);
    const planted = path.join(root, 'planted');
    fs.symlinkSync(loose, planted);
    expect(() => writeBriefFile('x', 'claude', planted)).toThrow(/not a directory owned by this user/);
  });
});

// --- A real terminal: xterm on a display (Xvfb started here when there is no DISPLAY). ---

function which(bin: string): string | null {
  try {
    return execFileSync('sh', ['-c', `command -v ${bin}`], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
}

const xterm = process.platform === 'linux' ? which('xterm') : null;
const xvfb = which('Xvfb');
// .ci/run installs xterm and Xvfb (apt-get); where they are missing this fails, saying which.
describe('openInAgent in a real xterm', () => {
  beforeAll(() => {
    if (!xterm) throw new Error('xterm is not installed (apt-get install xterm)');
    if (!process.env.DISPLAY && !xvfb) throw new Error('no DISPLAY and no Xvfb (apt-get install xvfb)');
  });
  let display = process.env.DISPLAY ?? '';
  let server: ChildProcess | null = null;

  beforeAll(async () => {
    if (display) return;
    display = `:${90 + (process.pid % 100)}`;
    server = spawn(xvfb!, [display, '-screen', '0', '1024x768x24', '-nolisten', 'tcp'], { stdio: 'ignore' });
    const socket = `/tmp/.X11-unix/X${display.slice(1)}`;
    for (let i = 0; i < 100 && !fs.existsSync(socket); i++) await new Promise((r) => setTimeout(r, 50));
  });

  afterAll(() => {
    server?.kill();
  });

  it('starts the stand-in agent in the session’s cwd with the brief as its argument', async () => {
    const cwd = path.join(root, 'real xterm "proj"');
    fs.mkdirSync(cwd);
    const env = { PATH: `${stubBin}:${path.dirname(xterm!)}:/usr/bin:/bin`, DISPLAY: display, BATON_TERMINAL: 'xterm', BATON_TEST_RECORDS: records, HOME: home };
    const result = await openInAgent(deps(env, cwd), { session: 'abc', target: 'opencode' });
    expect(result.error).toBeNull();
    expect(result.launched).toBe(true);
    let record: string[] | null = null;
    for (let i = 0; i < 200 && !record; i++) {
      await new Promise((r) => setTimeout(r, 50));
      record = readRecord('opencode');
    }
    expect(record).toEqual([cwd, '--prompt', BRIEF.replace(/\n+$/, '')]);
  });
});
