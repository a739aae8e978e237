import { describe, expect, it } from 'vitest';
import { launchTerminal } from './launcher.js';
import type { LaunchPlan } from './terminal-plan.js';

const plan = (file: string, args: string[]): LaunchPlan => ({ terminal: 'xterm', file, args, cwd: process.cwd(), command: 'x' });

describe('launchTerminal', () => {
  it('reports a missing executable', async () => {
    const outcome = await launchTerminal(plan('/nonexistent/terminal', []));
    expect(outcome.launched).toBe(false);
    expect(outcome.error).toMatch(/Could not start \/nonexistent\/terminal: .*ENOENT/);
  });

  it('reports an early non-zero exit with its stderr', async () => {
    const outcome = await launchTerminal(plan('sh', ['-c', 'echo "no display" >&2; exit 3']));
    expect(outcome).toEqual({ launched: false, error: 'sh failed: no display', pid: null });
  });

  it('counts a quick clean exit (terminal servers) and a still-running process as launched', async () => {
    expect((await launchTerminal(plan('sh', ['-c', 'exit 0']))).launched).toBe(true);
    const running = await launchTerminal(plan('sleep', ['2']), process.env, 200);
    expect(running.launched).toBe(true);
    expect(running.pid).toBeGreaterThan(0);
    process.kill(running.pid!);
  });
});
