/**
 * Runs a real agent CLI to completion: its own process group (so everything it starts is stopped
 * with it), the project's Node 22 first on PATH (Qwen Code needs it; the others accept it), a hard
 * time limit, and every byte it printed kept for failure messages.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';

export interface AgentRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  ms: number;
}

export interface RunOptions {
  bin: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs?: number;
  stdin?: string;
}

/** PATH with the Node running the tests (the project's Node 22) first. */
export function pathWithProjectNode(base = process.env.PATH ?? ''): string {
  return [path.dirname(process.execPath), base].filter(Boolean).join(path.delimiter);
}

export function runAgent(options: RunOptions): Promise<AgentRun> {
  const started = Date.now();
  const env = { ...options.env, PATH: pathWithProjectNode(options.env.PATH) };
  const child = spawn(options.bin, options.args, { cwd: options.cwd, env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  child.stdin.end(options.stdin ?? '');
  let timedOut = false;
  const killGroup = (signal: NodeJS.Signals) => {
    try {
      if (child.pid) process.kill(-child.pid, signal);
    } catch {
      /* already gone */
    }
  };
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup('SIGTERM');
    setTimeout(() => killGroup('SIGKILL'), 3000).unref();
  }, options.timeoutMs ?? 120_000);
  return new Promise((resolve, reject) => {
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      // Daemons the CLI left behind in its group (e.g. an app-server) go with it.
      killGroup('SIGKILL');
      resolve({ code, signal, stdout, stderr, timedOut, ms: Date.now() - started });
    });
  });
}
