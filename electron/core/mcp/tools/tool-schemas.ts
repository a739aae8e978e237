/**
 * Input schemas of the MCP tools. Names follow Handshake's tools so agent instructions carry over;
 * every field has a description an agent can act on. Every tool that takes a session calls the
 * argument `session` and also accepts `session_id` and `title` as aliases.
 */
import { z } from 'zod';
import { AGENTS } from '../../../../shared/model.js';
import { BRIEF_TARGETS } from '../../../../shared/settings.js';

const SESSION_HELP =
  'The session: a full id such as "codex:0199f0c2-…" or "claude:5e1d…", a unique id prefix, or words from its title ' +
  '(matched exactly, then as a substring, then all words). When several sessions match, the error lists their ids — call again with one of them.';

const ref = z.string().trim().min(1).max(500);

/** `session` plus its aliases; the handler takes the first one given. */
export const sessionArgs = {
  session: ref.optional().describe(SESSION_HELP),
  session_id: ref.optional().describe('Alias of `session`.'),
  title: ref.optional().describe('Alias of `session` (title words).'),
};

export const agentArg = z.enum(AGENTS);
const targetArg = z.enum(BRIEF_TARGETS);
const budgetArg = z
  .number()
  .int()
  .min(500)
  .max(200_000)
  .optional()
  .describe('Token budget for the brief (default: the user’s setting, usually 6000). The brief is trimmed to fit.');
const list = (what: string) => z.array(z.string().trim().min(1).max(4000)).max(200).optional().describe(what);

export const checkpointSessionArgs = {
  ...sessionArgs,
  agent: agentArg
    .optional()
    .describe('Your own agent type. With `cwd` and no `session`, Baton checkpoints your most recent session in that directory.'),
  cwd: z.string().trim().min(1).max(4096).optional().describe('Your working directory (absolute path). Used with `agent` when `session` is not given.'),
  summary: z
    .string()
    .trim()
    .min(1)
    .max(20_000)
    .describe('Where the work stands now, in a few sentences: what is done, what is in progress. The next agent reads this first.'),
  decisions: list('Settled decisions the next agent must treat as final (e.g. "Use Postgres, not SQLite").'),
  next_steps: list('Concrete next steps, in order.'),
  blockers: list('Open problems or questions blocking progress.'),
  files: list('Files changed or central to the work (paths relative to the working directory).'),
  idempotency_token: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe('Any unique string for this checkpoint. Retrying with the same token returns the same checkpoint instead of creating a second one.'),
};

export const listSessionsArgs = {
  agent: agentArg.optional().describe('Only sessions of this agent.'),
  project: z.string().max(1000).optional().describe('Only sessions whose working directory contains this text (e.g. the repo name).'),
  limit: z.number().int().min(1).max(200).optional().describe('How many sessions to return (default 20, newest first).'),
};

export const restoreSessionArgs = {
  ...sessionArgs,
  confirmed: z
    .boolean()
    .optional()
    .describe('Leave unset first: you get the git drift since the checkpoint and a summary to show the user. Call again with true to receive the handoff brief.'),
  target: targetArg.optional().describe('The agent that will continue the work (shapes the brief). Default: the user’s setting.'),
  budget: budgetArg,
};

export const generateBriefArgs = {
  ...sessionArgs,
  target: targetArg.optional().describe('The agent the brief is for. Default: the user’s setting.'),
  format: z
    .enum(['md', 'delimit', 'govzero', 'envelope'])
    .optional()
    .describe('md = Markdown (default); delimit/govzero = tagged sections; envelope = JSON handoff envelope.'),
  budget: budgetArg,
};

const QUERY_HELP =
  'Words to find (all must match), "quoted phrases", -excluded words, and filters agent:codex, project:<cwd part>, branch:<name>, after:2026-01-31, before:2026-02-01.';

export const searchSessionArgs = {
  ...sessionArgs,
  query: z.string().trim().min(1).max(1000).describe(QUERY_HELP),
  limit: z.number().int().min(1).max(200).optional().describe('Most hits to return (default 20).'),
};

export const searchAllSessionsArgs = {
  query: z.string().trim().min(1).max(1000).describe(QUERY_HELP),
  agent: agentArg.optional().describe('Only sessions of this agent.'),
  limit: z.number().int().min(1).max(200).optional().describe('Most hits to return (default 20).'),
};

export const completeHandoffArgs = {
  ...sessionArgs,
  checkpoint_id: z.string().trim().min(1).max(200).optional().describe('The checkpoint to mark completed (from restore_session). Default: the session’s latest checkpoint.'),
};

export const healthCheckArgs = {};

export const usageSummaryArgs = {
  agent: agentArg.optional().describe('Only this agent (default: every enabled agent).'),
  ...sessionArgs,
};

export const continueSessionArgs = {
  ...sessionArgs,
  agent: agentArg.describe('The agent that continues the session in its own store (claude, codex, hermes, …).'),
  cwd: z.string().trim().min(1).max(4096).optional().describe('Folder the continued session belongs to (default: the session’s own).'),
};
