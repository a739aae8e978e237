/**
 * usage_summary: how much room an agent has left — today's tokens and cost per agent, its usage
 * windows (percent used, reset time) where the agent records them, a recent "limit reached", and
 * the context fill of live sessions; or one session's usage when a session is named.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { parseApiInput } from '../../../../shared/contract.js';
import type { AgentId } from '../../../../shared/model.js';
import type { McpCore } from '../mcp-core.js';
import { guarded, ok, pickSession } from './tool-result.js';

export function usageSummary(core: McpCore, args: { agent?: AgentId; session?: string; session_id?: string; title?: string }): Promise<CallToolResult> {
  return guarded(async () => ok(await core.api.usageSummary(parseApiInput('usageSummary', { agent: args.agent, session: pickSession(args) }))), { session: pickSession(args) });
}
