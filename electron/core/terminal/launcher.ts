/**
 * Spawns a planned terminal, detached, and reports whether it started. Terminals that hand off to
 * a server (gnome-terminal, wt, osascript) exit at once with status 0; one that exits non-zero in
 * the first moments failed, and its stderr says why.
 */
import { spawn } from 'node:child_process';
import type { LaunchPlan } from './terminal-plan.js';

export interface LaunchOutcome {
  launched: boolean;
  error: string | null;
  pid: number | null;
}

/** How long a failing terminal is given to fail before the launch counts as started. */
export const EARLY_EXIT_WINDOW_MS = 1500;

export function launchTerminal(plan: LaunchPlan, env: NodeJS.ProcessEnv = process.env, windowMs = EARLY_EXIT_WINDOW_MS): Promise<LaunchOutcome> {
  return new Promise((resolve) => {
    let settled = false;
    let stderr = '';
    const finish = (outcome: LaunchOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.stderr?.removeAllListeners('data');
      child.stderr?.destroy();
      child.unref();
      resolve(outcome);
    };
    const child = spawn(plan.file, plan.args, {
      cwd: plan.cwd,
      env,
      detached: true,
      stdio: ['ignore', 'ignore', 'pipe'],
      windowsHide: false,
    });
    const timer = setTimeout(() => finish({ launched: true, error: null, pid: child.pid ?? null }), windowMs);
    child.stderr?.on('data', (chunk: Buffer) => {
      if (stderr.length < 2000) stderr += chunk.toString('utf8');
    });
    child.once('error', (err) => finish({ launched: false, error: `Could not start ${plan.file}: ${err.message}`, pid: null }));
    child.once('exit', (code, signal) => {
      if (code === 0) return finish({ launched: true, error: null, pid: child.pid ?? null });
      // 'exit' can come before the last stderr bytes are read: wait for the pipe to close (briefly,
      // since a grandchild may hold it open) so the reason is not lost.
      const fail = () => {
        const why = stderr.trim() || (signal ? `killed by ${signal}` : `exit status ${code}`);
        finish({ launched: false, error: `${plan.file} failed: ${why}`, pid: null });
      };
      if (!child.stderr || child.stderr.readableEnded) return fail();
      child.stderr.once('end', fail);
      setTimeout(fail, 250).unref();
    });
  });
}
