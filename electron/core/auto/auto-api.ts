/** The API's side of unattended continuation: switch a folder on or off, and what Baton did. */
import { ApiError } from '../../../shared/contract.js';
import type { AutoStatus } from '../../../shared/auto-continue.js';
import type { AgentId } from '../../../shared/model.js';
import type { AutoStore } from '../userdata/auto-store.js';
import { realDir } from '../handoff/project-match.js';
import { validateRule } from './auto-rules.js';

export function autoStatus(store: AutoStore, limit = 20): AutoStatus {
  return { rules: store.listRules(), runs: store.listRuns(limit) };
}

export interface AutoSwitch {
  folder: string;
  on: boolean;
  targets?: readonly AgentId[];
  when?: readonly ('limit' | 'context')[];
}

/** Switches a folder on (validated, stored) or off; switching off a folder not on is an error that changes nothing. */
export function setAutoContinue(store: AutoStore, input: AutoSwitch, now: Date = new Date()): AutoStatus {
  if (input.on) {
    store.setRule(validateRule({ folder: input.folder, targets: input.targets ?? [], when: input.when }), now.toISOString());
  } else {
    const folder = realDir(input.folder);
    if (!store.removeRule(folder)) throw new ApiError('not_found', `Unattended continuation is not on for ${folder}.`);
  }
  return autoStatus(store);
}
