/**
 * The MCP server: Baton's tools, registered on an SDK `McpServer`. Each tool is a thin layer over
 * the contract's handlers (see tools/), so the UI and agents see the same behaviour.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { McpCore } from './mcp-core.js';
import {
  checkpointSessionArgs,
  completeHandoffArgs,
  continueSessionArgs,
  generateBriefArgs,
  healthCheckArgs,
  listSessionsArgs,
  restoreSessionArgs,
  searchAllSessionsArgs,
  searchSessionArgs,
  usageSummaryArgs,
} from './tools/tool-schemas.js';
import { listSessions, searchAllSessions, searchSession } from './tools/session-tools.js';
import { checkpointSession, completeHandoff, generateBrief, restoreSession } from './tools/handoff-tools.js';
import { healthCheck } from './tools/health-tool.js';
import { usageSummary } from './tools/usage-tool.js';
import { continueSessionTool } from './tools/continue-tool.js';

export { MCP_TOOL_NAMES } from '../../../shared/mcp-tool-names.js';

const INSTRUCTIONS = `Baton keeps the sessions of Claude Code, Codex, OpenCode and Hermes on this machine so work can move between agents.
- Before handing off (or when asked to "checkpoint"), call checkpoint_session with your session id — or your agent type and cwd — plus a summary, decisions and next steps.
- To pick up work, call list_sessions or search_all_sessions, then restore_session (first without confirmed to see what changed in git, then with confirmed: true for the brief). Call complete_handoff when done.
- To see how much room is left (today's tokens and cost, usage windows, context fill), call usage_summary.
- generate_brief previews a brief without restoring.
- To move a conversation into another agent's own session list (resumable there with its own command), call continue_session.`;

export function createMcpServer(core: McpCore): McpServer {
  const server = new McpServer({ name: 'baton', title: 'Baton', version: core.version }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });

  server.registerTool(
    'checkpoint_session',
    {
      title: 'Checkpoint this session',
      description:
        'Save where the work stands so another agent can continue: your summary, settled decisions, next steps, blockers and files, plus a git snapshot. ' +
        'Identify the session by `session`, or by `agent` + `cwd` (your most recent session there). Baton re-reads your transcript first, so it includes your latest turns. ' +
        'Pass an idempotency_token to make retries safe. Returns the checkpoint id and the git snapshot.',
      inputSchema: checkpointSessionArgs,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args) => checkpointSession(core, args),
  );

  server.registerTool(
    'list_sessions',
    {
      title: 'List sessions',
      description: 'Sessions of every agent on this machine, newest first, with id, title, cwd, branch and latest checkpoint. Filter by agent and project (cwd substring).',
      inputSchema: listSessionsArgs,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) => listSessions(core, args),
  );

  server.registerTool(
    'restore_session',
    {
      title: 'Restore a session',
      description:
        'Continue another agent’s session, in two steps. First call (no `confirmed`): returns the latest checkpoint, the git drift since it (branch switches, new commits, changed files) and a summary — show these to the user. ' +
        'Second call with confirmed: true: returns the handoff brief (for `target`, within `budget` tokens) and marks the checkpoint received.',
      inputSchema: restoreSessionArgs,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args) => restoreSession(core, args),
  );

  server.registerTool(
    'generate_brief',
    {
      title: 'Preview a handoff brief',
      description: 'Render the handoff brief of a session without restoring it (nothing is marked received). Choose target agent, format and token budget.',
      inputSchema: generateBriefArgs,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) => generateBrief(core, args),
  );

  server.registerTool(
    'search_session',
    {
      title: 'Search one session',
      description: 'Full-text search within one session’s messages; returns snippets with the matches wrapped in [[ ]] and each message’s position (seq).',
      inputSchema: searchSessionArgs,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) => searchSession(core, args),
  );

  server.registerTool(
    'search_all_sessions',
    {
      title: 'Search all sessions',
      description: 'Full-text search across every agent’s sessions, best matches first, with snippets. Supports "phrases", -exclusions and agent:/project:/branch:/after:/before: filters.',
      inputSchema: searchAllSessionsArgs,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) => searchAllSessions(core, args),
  );

  server.registerTool(
    'complete_handoff',
    {
      title: 'Complete a handoff',
      description: 'As the receiving agent, mark the handoff completed once you have taken over the work (the checkpoint named, or the session’s latest one).',
      inputSchema: completeHandoffArgs,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args) => completeHandoff(core, args),
  );

  server.registerTool(
    'health_check',
    {
      title: 'Health check',
      description:
        'Baton’s health: checkpoint store reachable, per-agent store status and lag, checkpoints pending for more than five minutes, the last completed handoff and the index size. Reports isError when degraded.',
      inputSchema: healthCheckArgs,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    () => healthCheck(core),
  );

  server.registerTool(
    'usage_summary',
    {
      title: 'Usage and remaining room',
      description:
        'How much room is left before switching agents: per agent today’s tokens and cost, usage windows (percent used, reset time) where the agent records them, a usage limit reached, ' +
        'and each live session’s context fill (prompt tokens of its last request against the model’s context window). Name a session for that session’s usage alone.',
      inputSchema: usageSummaryArgs,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) => usageSummary(core, args),
  );

  server.registerTool(
    'continue_session',
    {
      title: 'Continue a session in another agent',
      description:
        'Write the session into another agent’s own session store as a new session continued from it (its newest turns verbatim, the brief for everything before, secrets redacted), ' +
        'so that agent resumes it with its own command. Returns the agent’s session id and the resume argv; the same session state continued twice gives the same session.',
      inputSchema: continueSessionArgs,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args) => continueSessionTool(core, args),
  );

  return server;
}
