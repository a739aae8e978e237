/**
 * OpenCode 2.x session → normalized Session + Messages. 2.x writes `session_v2` and
 * `session_message` rows: the role is the row's `type`, ordering is `seq`, and `data` is the
 * SessionMessage without `type` and `id` (agent-storage-formats.md §4.4):
 *
 * - `user` {text, files[]}: the prompt (files as short markers);
 * - `assistant` {model{id,providerID}, content[], tokens, …}: content blocks `reasoning` → thinking,
 *   `text` → text, `tool` {id, name, state{status, input, content[], error}} → tool_call + tool_result
 *   once completed or errored;
 * - `synthetic` {text} → system text; `shell` {callID, command, output} (a command the user ran) →
 *   tool call and result; `compaction` {summary} → system text (not a prompt);
 * - model/agent switches, idle and other bookkeeping rows carry no conversation.
 */
import type { Message } from '../../../../shared/model.js';
import { addTokens, asObject, emptyTally, isoFromEpoch, noteLimitHit, noteTime, num, openCodeSession, str, stringify, type JsonObject, type NormalizedSession, type OpenCodeSessionInfo } from './normalize.js';

export interface OpenCodeV2MessageRow {
  id: string;
  type: string;
  timeCreated: number | null;
  data: JsonObject;
}

/** Text of a 2.x tool result: its `content` blocks' text (other blocks as JSON). */
function toolOutput(state: JsonObject | null): string {
  const content = state?.content;
  if (!Array.isArray(content)) return stringify(state?.output ?? '');
  return content.map((c) => str(asObject(c)?.text) ?? stringify(c)).join('\n');
}

export function normalizeOpenCodeV2Session(info: OpenCodeSessionInfo, rows: OpenCodeV2MessageRow[], sourcePath: string, bytes: number): NormalizedSession {
  const sessionId = `${info.agent}:${info.id}`;
  const t = emptyTally();
  const { messages, toolNames } = t;
  const push = (m: Omit<Message, 'sessionId' | 'seq'>) => messages.push({ sessionId, seq: messages.length, ...m });
  const tool = (name: string, callId: string | null, input: unknown, done: boolean, isError: boolean, output: string, ts: string | null, nativeId: string) => {
    if (!toolNames.includes(name)) toolNames.push(name);
    push({ role: 'assistant', kind: 'tool_call', text: stringify(input ?? {}), toolName: name, toolCallId: callId, isError: false, timestamp: ts, nativeId });
    if (done) push({ role: 'tool', kind: 'tool_result', text: output, toolName: name, toolCallId: callId, isError, timestamp: ts, nativeId });
  };

  for (const row of rows) {
    const d = row.data;
    const created = num(asObject(d.time)?.created) || row.timeCreated || null;
    noteTime(t, created);
    const ts = isoFromEpoch(created);
    const text = (role: Message['role'], body: string) =>
      push({ role, kind: 'text', text: body, toolName: null, toolCallId: null, isError: false, timestamp: ts, nativeId: row.id });
    switch (row.type) {
      case 'user': {
        const prompt = str(d.text) ?? '';
        if (prompt.trim()) {
          text('user', prompt);
          t.userTurns++;
          t.firstPrompt ??= prompt;
        }
        if (Array.isArray(d.files)) {
          for (const f of d.files) {
            const file = asObject(f);
            text('user', `[file: ${str(file?.filename) ?? str(file?.path) ?? str(file?.url)?.slice(0, 200) ?? 'file'}]`);
          }
        }
        break;
      }
      case 'assistant': {
        const m = asObject(d.model);
        const id = str(m?.id);
        if (id) t.model = str(m?.providerID) ? `${str(m?.providerID)}/${id}` : id;
        addTokens(t.usage, d.tokens);
        noteLimitHit(t, sessionId, row.id, ts, d.error);
        for (const raw of Array.isArray(d.content) ? d.content : []) {
          const block = asObject(raw);
          if (!block) continue;
          const type = str(block.type);
          if (type === 'text') text('assistant', str(block.text) ?? '');
          else if (type === 'reasoning') push({ role: 'assistant', kind: 'thinking', text: str(block.text) ?? '', toolName: null, toolCallId: null, isError: false, timestamp: ts, nativeId: row.id });
          else if (type === 'tool') {
            const state = asObject(block.state);
            const status = str(state?.status);
            const isError = status === 'error';
            const done = status === 'completed' || isError;
            tool(str(block.name) ?? 'unknown', str(block.id), state?.input, done, isError, isError ? stringify(state?.error ?? '') : toolOutput(state), ts, row.id);
          }
        }
        break;
      }
      case 'synthetic':
        text('system', str(d.text) ?? '');
        break;
      case 'shell':
        tool('shell', str(d.callID), { command: str(d.command) ?? '' }, d.output !== undefined, false, stringify(d.output ?? ''), ts, row.id);
        break;
      case 'compaction':
        if (str(d.summary)) text('system', str(d.summary)!);
        break;
      default:
        break; // model-switched, agent-switched, idle, location-switched, system: bookkeeping
    }
  }
  return {
    session: openCodeSession(info, t, sourcePath, bytes),
    messages,
    usage: t.limits,
  };
}
