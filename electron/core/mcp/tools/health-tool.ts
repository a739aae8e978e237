/**
 * health_check: what a prober (or a curious agent) needs to trust a handoff will land — the
 * checkpoint store answers, each agent store is readable and recently read, no handoff has been
 * stuck pending for more than five minutes. A degraded report is an `isError` result, so
 * monitors that only look at the flag still alert.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { McpCore } from '../mcp-core.js';
import { guarded } from './tool-result.js';

export function healthCheck(core: McpCore, now: () => number = Date.now): Promise<CallToolResult> {
  return guarded(async () => {
    const [health, sources, handoffs] = await Promise.all([
      core.api.health({}),
      core.api.sourceStatus({}),
      core.api.handoffStatus({}).catch((err: unknown) => ({
        storeOk: false,
        error: err instanceof Error ? err.message : String(err),
        pending: 0,
        stalePending: 0,
        lastCompletedAt: null,
        lastCompletedSessionId: null,
      })),
    ]);
    const at = now();
    const sourceViews = sources.map((s) => ({
      agent: s.agent,
      state: s.state,
      sessions: s.sessions,
      messages: s.messages,
      last_read_at: s.lastReadAt,
      lag_seconds: s.lastReadAt ? Math.max(0, Math.round((at - Date.parse(s.lastReadAt)) / 1000)) : null,
      last_error: s.lastError,
    }));
    const problems: string[] = [];
    if (!handoffs.storeOk) problems.push(`checkpoint store unreachable: ${handoffs.error ?? 'unknown error'}`);
    if (handoffs.stalePending > 0) problems.push(`${handoffs.stalePending} checkpoint(s) pending for more than five minutes`);
    for (const s of sources) if (s.state === 'unreadable') problems.push(`${s.agent} store unreadable: ${s.lastError ?? 'unknown error'}`);
    if (health.index.phase === 'error') problems.push('the index reported an error');
    const report = {
      status: problems.length ? 'degraded' : 'healthy',
      problems,
      version: health.version,
      uptime_seconds: health.uptimeSeconds,
      checkpoint_store: handoffs.storeOk ? 'ok' : 'unreachable',
      pending_checkpoints: handoffs.pending,
      stale_pending_checkpoints: handoffs.stalePending,
      last_completed_handoff: handoffs.lastCompletedAt ? { at: handoffs.lastCompletedAt, session: handoffs.lastCompletedSessionId } : null,
      index: { phase: health.index.phase, sessions: health.index.sessions, messages: sources.reduce((n, s) => n + s.messages, 0), current_at: health.index.currentAt },
      sources: sourceViews,
      timestamp: new Date(at).toISOString(),
    };
    return { isError: problems.length > 0, content: [{ type: 'text', text: JSON.stringify(report, null, 2) }] };
  });
}
