/**
 * Test support: a command started in a process group of its own, so that stopping it also stops
 * what it started (`npm start` → node bin/start.mjs → node bin/baton.mjs serve: killing npm alone
 * leaves the server running).
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';

export interface GroupProcess {
  child: ChildProcess;
  /** stdout and stderr so far, interleaved as they arrived. */
  output(): string;
  /** Resolves with the first match of `pattern` in the output; rejects on exit or after `timeoutMs`. */
  waitFor(pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray>;
  /** SIGTERM to the whole group, SIGKILL to what is left after `graceMs`; resolves when the group is gone. */
  stop(graceMs?: number): Promise<void>;
}

export function startGroup(command: string, args: string[], options: Omit<SpawnOptions, 'detached' | 'stdio'>): GroupProcess {
  const child = spawn(command, args, { ...options, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const listeners = new Set<() => void>();
  const append = (chunk: Buffer) => {
    output += chunk.toString();
    for (const l of listeners) l();
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);

  return {
    child,
    output: () => output,
    waitFor(pattern, timeoutMs) {
      return new Promise((resolve, reject) => {
        const done = () => {
          clearTimeout(timer);
          listeners.delete(check);
          child.off('exit', onExit);
        };
        const check = () => {
          const match = output.match(pattern);
          if (match) {
            done();
            resolve(match);
          }
        };
        const onExit = (code: number | null) => {
          done();
          reject(new Error(`${command} ${args.join(' ')} exited (${code}) before printing ${pattern}:\n${output}`));
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`${command} ${args.join(' ')} did not print ${pattern} within ${timeoutMs} ms:\n${output}`));
        }, timeoutMs);
        listeners.add(check);
        child.once('exit', onExit);
        check();
      });
    },
    stop: (graceMs = 5000) => stopGroup(child.pid, graceMs),
  };
}

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    /* the group is already gone */
  }
}

async function stopGroup(pgid: number | undefined, graceMs: number): Promise<void> {
  if (pgid === undefined) return;
  signalGroup(pgid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (groupAlive(pgid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  if (!groupAlive(pgid)) return;
  signalGroup(pgid, 'SIGKILL');
  // Killed members linger as zombies until their parent (or init) reaps them: moments.
  const reaped = Date.now() + 5000;
  while (groupAlive(pgid) && Date.now() < reaped) await new Promise((r) => setTimeout(r, 50));
}
