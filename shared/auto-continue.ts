/**
 * Unattended continuation, switched on per folder: when a session there hits its limit (or fills its
 * context, where asked) while Baton watches, Baton hands off to the first agent of the folder's list
 * that has room and opens it there. What is stored (rules, runs) and what the API returns.
 */
import type { AgentId } from './model.js';

export const AUTO_TRIGGERS = ['limit', 'context'] as const;
export type AutoTrigger = (typeof AUTO_TRIGGERS)[number];

/** A folder switched on: sessions in it, below it, or in its git work tree are carried on. */
export interface AutoRule {
  /** Absolute, symlinks resolved. */
  folder: string;
  worktreeRoot: string | null;
  /** The agents that carry on, in the user's order: the first with room is opened. */
  targets: AgentId[];
  when: AutoTrigger[];
  createdAt: string;
  updatedAt: string;
}

/**
 * One time Baton acted (or decided it could not): opened an agent, found none with room, or could
 * not open a terminal. At most one per folder, source agent and limit window (per session for context).
 */
export interface AutoRun {
  id: string;
  folder: string;
  sourceSession: string;
  sourceAgent: AgentId;
  trigger: AutoTrigger;
  /** When the source's limit window ends (its reset, else the hit + 5 h); null for a context trigger. */
  windowEnd: string | null;
  /** When the source's limit resets, as the agent said (null when unknown). */
  resetsAt: string | null;
  /** The agent that carried on; null when none had room. */
  target: AgentId | null;
  /** The handoff record (checkpoint id) the target received. */
  checkpointId: string | null;
  outcome: 'opened' | 'not-opened' | 'no-target';
  /** What the user was told. */
  message: string;
  /** The command the terminal ran (or that the user can run when it could not open). */
  command: string | null;
  createdAt: string;
}

export interface AutoStatus {
  rules: AutoRule[];
  /** Newest first. */
  runs: AutoRun[];
}
