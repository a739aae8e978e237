// Every command line Baton prints or runs, read by REAL shells: sh, dash, bash, zsh and fish (the
// user's shell and the host's login shell can each be any of them). Hostile folder names must be
// data: the shell lands in exactly that folder, the agent gets exactly the brief, and nothing else
// runs (no `pwned` file anywhere). zsh and fish come from apt (.ci/run installs them).
// PowerShell is not packaged for Debian: its quoting is checked as strings in shell-quote.test.ts.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCommand } from '../briefs/targets.js';
import { remoteOpenCommand } from '../remote/remote-open.js';
import { copyableCommand } from './agent-command.js';
import { quotePosix } from './shell-quote.js';

const SHELLS = ['sh', 'dash', 'bash', 'zsh', 'fish'] as const;
type Shell = (typeof SHELLS)[number];

const HOSTILE = [
  "it's",
  "a\\'b",
  "a\\\\'b\\",
  '\\',
  "'",
  "''",
  '$(touch pwned)',
  '`touch pwned`',
  'a;touch pwned;b',
  'a && touch pwned',
  'new\ntouch pwned\nline',
  '"dq" \'sq\'',
  '%PATH% $HOME ${HOME} !! !$',
  '*glob?[a]{b,c}~',
  'ünïcødé 日本 👩‍💻',
  '-leading',
  '+1',
  ' spaced ',
  'tab\there',
  '#hash',
];

let root: string;
let stubBin: string;
let hostHome: string;
let work: string;
let records: string;

/** sh, but any of the five; HOME is a private dir so no user config changes what they do. */
function runIn(shell: Shell, command: string, env: NodeJS.ProcessEnv = {}, input?: string) {
  const result = spawnSync(shell, ['-c', command], {
    cwd: work,
    encoding: 'utf8',
    input,
    env: { PATH: `${stubBin}:/usr/bin:/bin`, HOME: path.join(root, 'home'), RECORD: records, FAKE_HOST_HOME: hostHome, FAKE_HOST_SHELL: 'sh', ...env },
  });
  return result;
}

function recorded(): string[] {
  const text = fs.readFileSync(records, 'utf8');
  fs.rmSync(records);
  return text.split('\0').slice(0, -1);
}

function noPwned(): void {
  const found = spawnSync('find', [root, '-name', 'pwned'], { encoding: 'utf8' }).stdout.trim();
  expect(found).toBe('');
}

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'baton-shells-'));
  stubBin = path.join(root, 'bin');
  hostHome = path.join(root, 'host-home');
  work = path.join(root, 'work');
  records = path.join(root, 'record');
  for (const dir of [stubBin, hostHome, work, path.join(root, 'home'), path.join(root, 'dirs')]) fs.mkdirSync(dir, { recursive: true });
  for (const shell of SHELLS) {
    const r = spawnSync(shell, ['-c', 'exit 0']);
    if (r.error || r.status !== 0) throw new Error(`${shell} is not installed (apt-get install -y zsh fish)`);
  }
  // The agent: records where it started and its argv.
  fs.writeFileSync(path.join(stubBin, 'claude'), `#!/bin/sh\nprintf '%s\\0' "$(pwd)" "$@" > "$RECORD"\n`, { mode: 0o755 });
  // OpenSSH as the host sees it: the words after the destination, joined with spaces, run by the
  // user's login shell as `$SHELL -c <command>` in their home; stdin passes through.
  fs.writeFileSync(
    path.join(stubBin, 'ssh'),
    [
      '#!/bin/sh',
      'while [ $# -gt 0 ]; do',
      '  case "$1" in',
      '    --) shift; break ;;',
      '    -o|-p|-F|-i|-l) shift 2 ;;',
      '    *) shift ;;',
      '  esac',
      'done',
      'shift',
      'cd "$FAKE_HOST_HOME" || exit 1',
      'HOME=$FAKE_HOST_HOME exec "$FAKE_HOST_SHELL" -c "$*"',
      '',
    ].join('\n'),
    { mode: 0o755 },
  );
  for (const name of HOSTILE) fs.mkdirSync(path.join(root, 'dirs', name));
});

afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe.each(SHELLS)('%s', (shell) => {
  it('reads every quoted value back verbatim', () => {
    for (const value of [...HOSTILE, '', 'a\\nb', '\\\\\\', "\\'\\'"]) {
      const out = runIn(shell, `printf '%s|' ${quotePosix(value)}`);
      expect(out.stdout, `${shell}: ${JSON.stringify(value)}`).toBe(`${value}|`);
    }
    noPwned();
  });

  it('the copyable command lands in exactly the folder and hands over exactly the brief', () => {
    const brief = path.join(root, 'brief.md');
    fs.writeFileSync(brief, "it's $(touch pwned) `x` \\' \\\\ \"q\"");
    for (const name of HOSTILE) {
      const dir = path.join(root, 'dirs', name);
      const ran = runIn(shell, copyableCommand('claude', dir, brief, 'posix'));
      expect(ran.status, `${shell} ${JSON.stringify(name)}: ${ran.stderr}`).toBe(0);
      expect(recorded()).toEqual([dir, fs.readFileSync(brief, 'utf8')]);
    }
    noPwned();
  });

  it('a relative folder starting with - or + is a folder, not an option or the directory stack', () => {
    fs.mkdirSync(path.join(work, '-P'), { recursive: true });
    fs.mkdirSync(path.join(work, '+1'), { recursive: true });
    for (const rel of ['-P', '+1']) {
      const ran = runIn(shell, copyableCommand('claude', rel, null, 'posix'));
      expect(ran.status, ran.stderr).toBe(0);
      expect(recorded()).toEqual([path.join(work, rel)]);
    }
  });

  it.each(SHELLS)('the brief’s open command for a host session, with the host’s login shell %s', (hostShell) => {
    for (const name of HOSTILE) {
      const dir = path.join(root, 'dirs', name);
      const line = openCommand('claude', dir, { destination: 'me@devbox:2200', sshArgs: ['-F', '/dev/null'] })!;
      const ran = runIn(shell, line, { FAKE_HOST_SHELL: hostShell });
      expect(ran.status, `${shell} → ${hostShell} ${JSON.stringify(name)}: ${ran.stderr}`).toBe(0);
      expect(recorded()).toEqual([dir]);
    }
    noPwned();
  });

  it.each(SHELLS)('"Open in" a host session, with the host’s login shell %s', (hostShell) => {
    const briefText = "# it's\n$(touch pwned) `touch pwned` \\' \\\\ \"q\"\n\n";
    for (const name of HOSTILE) {
      const dir = path.join(root, 'dirs', name);
      const briefFile = path.join(root, `brief-claude-${Math.random().toString(16).slice(2)}.md`);
      fs.writeFileSync(briefFile, briefText);
      const line = remoteOpenCommand({ destination: 'me@devbox', sshArgs: [] }, path.join(root, 'cm'), 'claude', dir, briefFile, 'posix');
      const ran = runIn(shell, line, { FAKE_HOST_SHELL: hostShell });
      expect(ran.status, `${shell} → ${hostShell} ${JSON.stringify(name)}: ${ran.stderr}`).toBe(0);
      expect(recorded()).toEqual([dir, briefText]);
    }
    // The launcher removes itself on the host: the brief does not stay behind.
    expect(fs.readdirSync(path.join(hostHome, '.cache', 'baton-briefs'))).toEqual([]);
    noPwned();
  });
});

describe('"Open in" a host session from Windows PowerShell', () => {
  // PowerShell is not on Debian: the line is checked as text. The folder and brief travel inside the
  // launcher file only, and no argument to ssh.exe holds a `"` (Windows PowerShell 5.1 mangles them).
  it('puts neither the folder nor a double quote on the command line', () => {
    const briefFile = path.join(root, 'brief-claude-ps1.md');
    fs.writeFileSync(briefFile, 'brief');
    const dir = "/home/o'brien/$(calc)/\"x\"";
    const line = remoteOpenCommand({ destination: 'me@devbox', sshArgs: [] }, 'C:\\cm', 'claude', dir, briefFile, 'powershell');
    expect(line).not.toContain('brien');
    expect(line).not.toContain('"');
    expect(line).toMatch(/^Get-Content -Raw -LiteralPath '.*brief-claude-ps1\.sh' \| & 'ssh' .*; if \(\$\?\) \{ & 'ssh' .*'-t'.*'sh -c ''cd && exec sh \.cache\/baton-briefs\/brief-claude-ps1\.sh''' \}$/);
    expect(fs.readFileSync(path.join(root, 'brief-claude-ps1.sh'), 'utf8')).toContain("cd '/home/o'\\''brien/$(calc)/\"x\"' || exit 1");
  });
});
