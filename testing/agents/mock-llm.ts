/**
 * The scripted loopback LLM of `../shared/mock-llm/` started on a free 127.0.0.1 port for one test,
 * with its own request log. `requests()` reads what the CLI sent the model, in order; `stop()` ends
 * the process by its own pid (never an npx wrapper).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export function mockLlmDir(): string {
  return process.env.BATON_MOCK_LLM ?? path.resolve(repoRoot, '..', 'shared', 'mock-llm');
}

export interface MockRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

export interface MockLlm {
  port: number;
  /** `http://127.0.0.1:<port>` (no trailing slash). */
  url: string;
  logPath: string;
  requests(): MockRequest[];
  /** Forget the requests seen so far (the log file is truncated). */
  clear(): void;
  stop(): Promise<void>;
}

/** A port on 127.0.0.1 nothing listens on right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export async function startMockLlm(options: { dir: string; env?: NodeJS.ProcessEnv }): Promise<MockLlm> {
  const script = path.join(mockLlmDir(), 'mock-llm.js');
  if (!fs.existsSync(script)) throw new Error(`mock LLM not found at ${script} (set BATON_MOCK_LLM)`);
  fs.mkdirSync(options.dir, { recursive: true });
  const logPath = path.join(options.dir, 'mock-requests.jsonl');
  fs.writeFileSync(logPath, '');
  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    const child = spawn(process.execPath, [script], {
      cwd: mockLlmDir(),
      env: { ...process.env, ...options.env, MOCK_PORT: String(port), MOCK_LOG: logPath },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout?.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
    const up = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), 10_000);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve(false);
      });
      child.stdout?.on('data', () => {
        if (output.includes('listening')) {
          clearTimeout(timer);
          resolve(true);
        }
      });
    });
    if (up) return handle(child, port, logPath);
    child.kill('SIGKILL');
    if (attempt >= 2) throw new Error(`mock LLM did not start on port ${port}:\n${output}`);
  }
}

function handle(child: ChildProcess, port: number, logPath: string): MockLlm {
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    logPath,
    requests() {
      const out: MockRequest[] = [];
      for (const line of fs.readFileSync(logPath, 'utf8').split('\n')) {
        if (!line.trim()) continue;
        try {
          out.push(JSON.parse(line) as MockRequest);
        } catch {
          /* a line being written right now */
        }
      }
      return out;
    },
    clear() {
      fs.writeFileSync(logPath, '');
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      await new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 2000).unref();
      });
    },
  };
}
