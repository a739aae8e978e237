/**
 * The command line an agent's config runs for a Baton hook: the absolute Node binary and the
 * absolute `bin/baton.mjs`, never `npx` (an npm round trip costs ~165 ms per hook, and offline it
 * retries for a minute). Baton recognises its own entries by the `baton.mjs' hook <event>` tail,
 * wherever Baton was installed from, so a moved checkout replaces its old entries.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AgentId } from '../../../shared/model.js';
import type { HookEvent } from '../handoff/hook-main.js';
import { quotePosix } from '../terminal/shell-quote.js';

export interface HookRuntime {
  node: string;
  script: string;
}

/** This Baton: the Node running it and the `bin/baton.mjs` next to these sources (or dist/). */
export function currentHookRuntime(): HookRuntime {
  const here = path.dirname(fileURLToPath(import.meta.url));
  // electron/core/hooks → repo root; dist/electron/core/hooks → repo root as well (one more level).
  const candidates = [path.resolve(here, '../../..'), path.resolve(here, '../../../..')];
  const root = candidates.find((dir) => path.basename(dir) !== 'dist') ?? candidates[0]!;
  return { node: process.execPath, script: path.join(root, 'bin', 'baton.mjs') };
}

export function hookCommand(runtime: HookRuntime, event: HookEvent, agent: AgentId): string {
  return `${quotePosix(runtime.node)} ${quotePosix(runtime.script)} hook ${event} --agent ${agent}`;
}

const OURS = /baton\.mjs'?"?\s+hook\s+(session-start|pre-compact|stop)\s+--agent\s/;

export function isBatonHookCommand(command: unknown): boolean {
  return typeof command === 'string' && OURS.test(command);
}
