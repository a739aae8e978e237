import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { machineLabel, parseDestination } from '../../../shared/machines.js';
import { MachineSettingsSchema } from '../../../shared/settings.js';
import type { ReadBatch } from '../sources/types.js';
import { isRemoteKey, remoteUnitPrefix, sessionHost, toLaptopBatch, toLaptopUnit } from './remote-ids.js';
import { describeSshFailure, remoteServeArgs } from './ssh-command.js';
import { openCommand } from '../briefs/targets.js';

describe('machine destinations and labels', () => {
  it('splits user@host:port, keeps aliases and bare hosts whole', () => {
    expect(parseDestination('me@10.0.0.5:2222')).toEqual({ target: 'me@10.0.0.5', port: 2222 });
    expect(parseDestination('devbox')).toEqual({ target: 'devbox', port: null });
    expect(parseDestination('me@build.example.com')).toEqual({ target: 'me@build.example.com', port: null });
  });

  it('labels a machine by its own label, else its host name', () => {
    expect(machineLabel({ destination: 'me@build.example.com:22', label: null })).toBe('build.example.com');
    expect(machineLabel({ destination: 'devbox', label: 'gpu' })).toBe('gpu');
  });

  it('accepts ssh arguments that pick a config, key or jump host, refuses ones that run programs, open ports or loosen host keys', () => {
    const ok = ['-F', '/home/me/.ssh/work', '-i', '~/.ssh/id_work', '-J', 'bastion', '-o', 'ServerAliveInterval=30', '-oConnectTimeout=5', '-p', '2222', '-4', '-v'];
    expect(MachineSettingsSchema.parse({ destination: 'devbox', sshArgs: ok }).sshArgs).toEqual(ok);
    for (const bad of [['-o', 'ProxyCommand=sh -c x'], ['-oLocalCommand=x'], ['-o', 'StrictHostKeyChecking=no'], ['-o', 'UserKnownHostsFile=/dev/null'], ['-L', '8080:localhost:80'], ['-D1080'], ['-R', '9000:x:1'], ['-oPermitLocalCommand=yes'], ['-f'], ['-N'], ['-o', 'ControlPath=/tmp/x']]) {
      expect(() => MachineSettingsSchema.parse({ destination: 'devbox', sshArgs: bad }), bad.join(' ')).toThrow(/not allowed here/);
    }
  });

  it('rejects destinations ssh would read as options', () => {
    expect(() => MachineSettingsSchema.parse({ destination: '-oProxyCommand=evil' })).toThrow();
    expect(() => MachineSettingsSchema.parse({ destination: 'a host' })).toThrow();
  });
});

describe('the ssh command line', () => {
  const machine = MachineSettingsSchema.parse({ destination: 'me@devbox:2200', sshArgs: ['-F', '/cfg'] });

  it('runs batch mode with connection reuse and never loosens host key checking', () => {
    const args = remoteServeArgs(machine, '/tmp/cm');
    expect(args).toContain('BatchMode=yes');
    expect(args).toContain('ControlMaster=auto');
    expect(args.join(' ')).not.toMatch(/StrictHostKeyChecking|UserKnownHostsFile=\/dev\/null/);
    // Port and user options come before `--`, the destination and the remote command after it.
    expect(args.slice(-3)).toEqual(['--', 'me@devbox', 'baton remote-serve --stdio']);
    expect(args.slice(args.indexOf('-p'), args.indexOf('-p') + 2)).toEqual(['-p', '2200']);
  });

  it('turns ssh failures into one sentence with the way out', () => {
    expect(describeSshFailure('devbox', 'baton', 255, '@@@ WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED! @@@\nHost key verification failed.\n')).toMatch(
      /host key verification failed.*run `ssh devbox` once/,
    );
    expect(describeSshFailure('devbox', 'baton', 127, 'bash: line 1: baton: command not found\n')).toMatch(/Baton is not installed there.*npm install -g baton/);
    expect(describeSshFailure('devbox', 'baton', 1, "error: unknown command 'remote-serve'\n")).toMatch(/too old/);
    expect(describeSshFailure('devbox', 'baton', 255, 'ssh: connect to host devbox port 22: Connection refused\n')).toMatch(/^devbox is unreachable: ssh: connect/);
    expect(describeSshFailure('devbox', 'baton', 255, 'me@devbox: Permission denied (publickey).\n')).toMatch(/could not log in without a prompt/);
  });
});

describe("a host session's open command", () => {
  it('runs the agent on the host, in its folder, over ssh -t', () => {
    const line = openCommand('claude', "/home/me/it's here", { destination: 'me@devbox:2200', sshArgs: ['-F', '/cfg'] })!;
    expect(line.startsWith('ssh -t ')).toBe(true);
    // What ssh would receive, as the user's shell splits the line; the last word is what the host's shell runs.
    const argv = execFileSync('sh', ['-c', `printf '%s\\n' ${line.slice('ssh '.length)}`], { encoding: 'utf8' }).trimEnd().split('\n');
    expect(argv.slice(0, -1)).toEqual(['-t', '-p', '2200', '-F', '/cfg', '--', 'me@devbox']);
    const onHost = execFileSync('sh', ['-c', `printf '%s\\n' ${argv.at(-1)!.replace(' && claude', '')}`], { encoding: 'utf8' });
    expect(onHost).toBe("cd\n/home/me/it's here\n");
    expect(openCommand('claude', '/w', null)).toBe("cd '/w' && claude");
  });
});

describe('host-qualified ids', () => {
  it('names units and every id a batch carries after the host', () => {
    const unit = toLaptopUnit('devbox', 'claude', { key: '/h/.claude/p/a.jsonl', path: '/h/.claude/p/a.jsonl', size: 1, mtimeMs: 2 });
    expect(unit.key).toBe(`${remoteUnitPrefix('devbox', 'claude')}/h/.claude/p/a.jsonl`);
    expect(unit.path).toBe('ssh://devbox/h/.claude/p/a.jsonl');
    expect(isRemoteKey(unit.key)).toBe(true);
    expect(isRemoteKey('/h/.claude/p/a.jsonl')).toBe(false);

    const session = {
      id: 'claude:b', agent: 'claude', nativeId: 'b', title: null, cwd: '/w', gitBranch: null, gitCommit: null, model: null, startedAt: null,
      updatedAt: null, firstPrompt: null, userTurns: 0, messageCount: 0, toolNames: [], usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
      parentId: 'claude:a', sourcePath: '/h/b.jsonl', bytes: 0,
    } as const;
    const batch: ReadBatch = {
      sessions: [{ ...session, toolNames: [], usage: { ...session.usage } }],
      messages: [{ sessionId: 'claude:b', seq: 0, role: 'user', kind: 'text', text: 'hi', toolName: null, toolCallId: null, isError: false, timestamp: null, nativeId: null }],
      resetSessions: ['claude:b'],
      goneSessions: ['claude:c'],
      usage: [{ sessionId: 'claude:b', key: 'k', at: null, model: null, input: 1, output: 1, cacheRead: 0, cacheWrite: 0, reasoning: 0, contextWindow: null, limits: null }],
      cursor: { offset: 10 },
      bytesRead: 5,
    };
    const out = toLaptopBatch('devbox', batch);
    expect(out.sessions[0]).toMatchObject({ id: 'devbox/claude:b', nativeId: 'b', parentId: 'devbox/claude:a', sourcePath: 'ssh://devbox/h/b.jsonl' });
    expect(out.messages[0]!.sessionId).toBe('devbox/claude:b');
    expect(out.resetSessions).toEqual(['devbox/claude:b']);
    expect(out.goneSessions).toEqual(['devbox/claude:c']);
    expect(out.usage![0]!.sessionId).toBe('devbox/claude:b');
    expect(out.cursor).toEqual({ offset: 10 }); // the host's own cursor, stored as is
  });

  it('tells a host session from a local one', () => {
    expect(sessionHost('devbox/claude:abc')).toBe('devbox');
    expect(sessionHost('claude:abc')).toBeNull();
    expect(sessionHost('opencode:ses/with/slash')).toBeNull();
  });
});
