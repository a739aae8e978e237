/** Runs this checkout's `baton` command (bin/baton.mjs) with the project's Node, as a user would. */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const BATON_BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/baton.mjs');

export interface BatonRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runBaton(args: string[], env: NodeJS.ProcessEnv, options: { cwd?: string; stdin?: string } = {}): BatonRun {
  const r = spawnSync(process.execPath, [BATON_BIN, ...args], {
    env,
    cwd: options.cwd,
    input: options.stdin ?? '',
    encoding: 'utf8',
    timeout: 180_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
