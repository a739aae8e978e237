/**
 * A real agent's TUI in a detached tmux session on a private tmux server (its own socket), so a
 * test can type into it, read its screen and stop it. `stop()` ends that tmux server, which ends
 * every process the TUI started in its terminal.
 */
import { execFileSync } from 'node:child_process';
import { pathWithProjectNode } from './run-agent.js';

export interface Tui {
  /** Types literal text (no Enter). */
  type(text: string): void;
  /** Presses keys by tmux name (`Enter`, `Down`, `C-c`). */
  keys(...keys: string[]): void;
  /** The visible screen, as text. */
  screen(): string;
  /** Waits until the screen matches; returns it. */
  waitFor(what: RegExp, timeoutMs?: number): Promise<string>;
  /** Whether the program in the TUI is still running. */
  alive(): boolean;
  /** Waits for the program to exit on its own (after /exit, /quit). */
  waitExit(timeoutMs?: number): Promise<void>;
  stop(): void;
}

let counter = 0;

export function hasTmux(): boolean {
  try {
    execFileSync('tmux', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export function startTui(options: { bin: string; args: string[]; cwd: string; env: NodeJS.ProcessEnv }): Tui {
  const socket = `baton-test-${process.pid}-${++counter}`;
  const tmux = (...args: string[]) => execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
  const env = { ...options.env, PATH: pathWithProjectNode(options.env.PATH) };
  const assignments = Object.entries(env)
    .filter((e): e is [string, string] => typeof e[1] === 'string')
    .map(([k, v]) => `${k}=${v}`);
  // `env -i`: the TUI sees exactly the test's environment, not the tmux server's.
  tmux('new-session', '-d', '-s', 'tui', '-x', '160', '-y', '45', '-c', options.cwd, 'env', '-i', ...assignments, options.bin, ...options.args);
  const alive = () => {
    try {
      tmux('has-session', '-t', 'tui');
      return true;
    } catch {
      return false;
    }
  };
  const screen = () => (alive() ? tmux('capture-pane', '-p', '-t', 'tui') : '');
  return {
    type: (text) => tmux('send-keys', '-t', 'tui', '-l', text),
    keys: (...keys) => tmux('send-keys', '-t', 'tui', ...keys),
    screen,
    alive,
    async waitFor(what, timeoutMs = 60_000) {
      const end = Date.now() + timeoutMs;
      for (;;) {
        const s = screen();
        if (what.test(s)) return s;
        if (Date.now() > end) throw new Error(`TUI screen never matched ${what}; last screen:\n${s}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    },
    async waitExit(timeoutMs = 30_000) {
      const end = Date.now() + timeoutMs;
      while (alive()) {
        if (Date.now() > end) throw new Error(`TUI did not exit; last screen:\n${screen()}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    },
    stop() {
      try {
        tmux('kill-server');
      } catch {
        /* already gone */
      }
    },
  };
}
