/**
 * A planned conversation as a Codex rollout, shaped like the one Codex's own importer of external
 * sessions writes: `session_meta` first (with the `model_provider` the user's Codex runs, else
 * resume fails with "Model provider `` not found"), then per turn `task_started`, the user message
 * both as the model-visible `response_item` and as the `user_message` event (the picker's preview
 * and the TUI's scrollback), the assistant's `response_item` and `agent_message`, `task_complete`.
 * Items carry no ids (Codex strips or rejects foreign ones). Timestamps are RFC 3339 strings.
 */
import type { ContinuationPlan } from '../native-writer.js';
import { uuidFrom } from '../native-ids.js';
import { conversationOf } from '../plan-continuation.js';

export interface CodexMeta {
  threadId: string;
  modelProvider: string;
  cliVersion: string;
  contextWindow: number;
}

/** `rollout-YYYY-MM-DDThh-mm-ss-<uuid>.jsonl` under `sessions/YYYY/MM/DD/` (UTC), the only names Codex lists. */
export function rolloutRelativePath(createdAt: string, threadId: string): string {
  const iso = new Date(createdAt).toISOString();
  const [date, time] = [iso.slice(0, 10), iso.slice(11, 19).replace(/:/g, '-')];
  const [y, m, d] = date.split('-');
  return `sessions/${y}/${m}/${d}/rollout-${date}T${time}-${threadId}.jsonl`;
}

export function codexRollout(plan: ContinuationPlan, meta: CodexMeta): string {
  const lines: string[] = [];
  let ordinal = 0;
  const at = plan.createdAt;
  const seconds = Math.floor(Date.parse(at) / 1000);
  const line = (type: string, payload: Record<string, unknown>) => lines.push(JSON.stringify({ timestamp: at, ordinal: ordinal++, type, payload }));
  line('session_meta', {
    session_id: meta.threadId,
    id: meta.threadId,
    timestamp: at,
    cwd: plan.cwd,
    originator: 'baton',
    cli_version: meta.cliVersion,
    source: 'cli',
    thread_source: 'user',
    model_provider: meta.modelProvider,
  });
  const turns = conversationOf(plan);
  let turnIndex = 0;
  for (let i = 0; i < turns.length; i++) {
    const user = turns[i]!;
    if (user.role !== 'user') continue;
    const turnId = uuidFrom(plan.key, `codex-turn-${turnIndex++}`);
    line('event_msg', { type: 'task_started', turn_id: turnId, started_at: seconds, model_context_window: meta.contextWindow, collaboration_mode_kind: 'default' });
    line('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: user.text }] });
    line('event_msg', { type: 'user_message', message: user.text, images: [], local_images: [], text_elements: [] });
    let last: string | null = null;
    const reply = turns[i + 1];
    if (reply && reply.role === 'assistant') {
      line('response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: reply.text }] });
      line('event_msg', { type: 'agent_message', message: reply.text });
      last = reply.text;
      i += 1;
    }
    line('event_msg', { type: 'task_complete', turn_id: turnId, last_agent_message: last, started_at: seconds, completed_at: seconds, duration_ms: 0 });
  }
  return `${lines.join('\n')}\n`;
}
