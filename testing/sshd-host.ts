/**
 * Test support: a real OpenSSH server on a free loopback port, with throw-away host and user keys in
 * a temp dir, plus an ssh_config for the client side that trusts exactly that host key. It plays
 * the "remote machine" in the remote-session tests; stop() and start() simulate the host going away
 * and coming back on the same port with the same key.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

export const SSHD = '/usr/sbin/sshd';

export interface SshdHost {
  port: number;
  dir: string;
  /** Client config: our user key, known_hosts holding this server's key, strict checking. */
  sshConfig: string;
  /** A client config whose known_hosts holds another key for this host:port (a "changed" host). */
  wrongKeyConfig: string;
  /** ssh arguments for the settings' `sshArgs`. */
  sshArgs(config?: string): string[];
  start(): Promise<void>;
  /** Kills the daemon and every connection it serves. */
  stop(): Promise<void>;
  cleanup(): Promise<void>;
}

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function keygen(file: string): string {
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'baton-test', '-f', file]);
  return fs.readFileSync(`${file}.pub`, 'utf8').trim().split(' ').slice(0, 2).join(' ');
}

export interface SshdOptions {
  /** Environment every session on this host gets (sshd SetEnv), e.g. HOME and a PATH with stand-in tools. */
  env?: Record<string, string>;
}

export async function startSshdHost(dir: string, opts: SshdOptions = {}): Promise<SshdHost> {
  if (!fs.existsSync(SSHD)) throw new Error(`${SSHD} is missing: the remote-machine tests need an OpenSSH server (apt-get install openssh-server)`);
  const port = await freePort();
  const hostKey = keygen(path.join(dir, 'host_key'));
  const otherKey = keygen(path.join(dir, 'other_host_key'));
  const userKey = keygen(path.join(dir, 'user_key'));
  fs.writeFileSync(path.join(dir, 'authorized_keys'), `${userKey}\n`);
  const sshdConfig = path.join(dir, 'sshd_config');
  fs.writeFileSync(
    sshdConfig,
    [
      `HostKey ${path.join(dir, 'host_key')}`,
      'ListenAddress 127.0.0.1',
      // The tests run as root (CI containers): key-only root login, keys in the temp dir.
      'PermitRootLogin prohibit-password',
      `AuthorizedKeysFile ${path.join(dir, 'authorized_keys')}`,
      'StrictModes no',
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'UsePAM no',
      'PidFile none',
      // One SetEnv line: sshd keeps only the first value of a keyword.
      ...(opts.env ? [`SetEnv ${Object.entries(opts.env).map(([k, v]) => `${k}=${v}`).join(' ')}`] : []),
      '',
    ].join('\n'),
  );
  const clientConfig = (name: string, key: string) => {
    const knownHosts = path.join(dir, `${name}_known_hosts`);
    fs.writeFileSync(knownHosts, `[127.0.0.1]:${port} ${key}\n`);
    const file = path.join(dir, `${name}_ssh_config`);
    fs.writeFileSync(
      file,
      [
        'Host *',
        `  IdentityFile ${path.join(dir, 'user_key')}`,
        '  IdentitiesOnly yes',
        `  UserKnownHostsFile ${knownHosts}`,
        '  GlobalKnownHostsFile /dev/null',
        '  StrictHostKeyChecking yes',
        '  LogLevel ERROR',
        '',
      ].join('\n'),
    );
    return file;
  };
  const sshConfig = clientConfig('good', hostKey);
  const wrongKeyConfig = clientConfig('wrong', otherKey);
  // sshd refuses to start without its privilege separation directory (absent in fresh containers).
  fs.mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });

  let child: ChildProcess | null = null;
  const host: SshdHost = {
    port,
    dir,
    sshConfig,
    wrongKeyConfig,
    sshArgs: (config = sshConfig) => ['-F', config],
    async start() {
      // Its own process group, so stop() takes the per-connection children down with it.
      const proc = spawn(SSHD, ['-D', '-e', '-f', sshdConfig, '-p', String(port)], { detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
      child = proc;
      let log = '';
      await new Promise<void>((resolve, reject) => {
        proc.stderr!.setEncoding('utf8').on('data', (d: string) => {
          log += d;
          if (log.includes('Server listening')) resolve();
        });
        proc.on('exit', (code) => reject(new Error(`sshd exited (${code}): ${log}`)));
      });
    },
    async stop() {
      const proc = child;
      child = null;
      if (!proc?.pid || proc.exitCode !== null) return;
      const exited = new Promise((resolve) => proc.once('exit', resolve));
      process.kill(-proc.pid, 'SIGTERM');
      await exited;
      // Connection processes left the group (setsid per session): end those serving our port.
      for (const pid of connectionPids(port)) {
        try {
          process.kill(pid, 'SIGTERM');
        } catch {
          // already gone
        }
      }
    },
    async cleanup() {
      await host.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  await host.start();
  return host;
}

/** sshd processes holding a connection to `port` (from /proc: their cmdline names the listener's config, not the port). */
function connectionPids(port: number): number[] {
  const inodes = new Set<string>();
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    if (!fs.existsSync(file)) continue;
    for (const line of fs.readFileSync(file, 'utf8').split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols.length < 10) continue;
      const local = Number.parseInt(cols[1]!.split(':')[1]!, 16);
      if (local === port) inodes.add(cols[9]!);
    }
  }
  const pids: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const comm = fs.readFileSync(`/proc/${entry}/comm`, 'utf8').trim();
      if (!comm.startsWith('sshd')) continue;
      const fds = fs.readdirSync(`/proc/${entry}/fd`);
      if (fds.some((fd) => inodes.has(/socket:\[(\d+)\]/.exec(safeReadlink(`/proc/${entry}/fd/${fd}`))?.[1] ?? ''))) pids.push(Number(entry));
    } catch {
      // process gone or not ours to read
    }
  }
  return pids;
}

function safeReadlink(file: string): string {
  try {
    return fs.readlinkSync(file);
  } catch {
    return '';
  }
}
