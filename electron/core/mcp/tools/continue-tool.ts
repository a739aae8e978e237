/** continue_session: write a session into another agent's own store, resumable with that agent's own command. */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { parseApiInput } from '../../../../shared/contract.js';
import type { AgentId } from '../../../../shared/model.js';
import type { McpCore } from '../mcp-core.js';
import { fail, guarded, MISSING_SESSION, ok, pickSession } from './tool-result.js';

export async function continueSessionTool(core: McpCore, args: { session?: string; session_id?: string; title?: string; agent: AgentId; cwd?: string }): Promise<CallToolResult> {
  const session = pickSession(args);
  if (!session) return fail(MISSING_SESSION);
  return guarded(async () => {
    // The source's latest turns first: an agent often continues the session it is in.
    const source = await core.api.getSession(parseApiInput('getSession', { session })).catch(() => null);
    if (source) await core.syncNow(source.agent);
    const r = await core.api.continueSession(parseApiInput('continueSession', { session, target: args.agent, cwd: args.cwd }));
    return ok({
      agent: r.agent,
      session: r.session,
      resume: r.resume,
      resume_command: r.resumeCommand,
      title: r.title,
      continued_from: r.source,
      turns: r.turns,
      tokens: r.tokens,
      context_window: r.contextWindow,
      reused: r.reused,
      notes: r.notes,
      warnings: r.warnings,
    });
  }, { session });
}
