/**
 * Copilot CLI `events.jsonl` events → normalized messages and session aggregates.
 *
 * Every line is `{type, data, id, timestamp, parentId}`. A subagent (`task` tool) runs inside the
 * parent's file: its task prompt is a `user.message` with a `source`, its own messages and tool runs
 * carry `parentToolCallId`. They are not the user's turns nor the parent's tools: the parent's `task`
 * call and its result (the subagent's report) stand for them. Its `session.usage_record`s carry no
 * marker and are the session's spend, so they count. Event types added later are skipped.
 */
import path from 'node:path';
import type { TailRecord } from '../jsonl/jsonl-tail.js';
import { noteTimestamp, setTitle, type RecordParser, type RecordSink, type SessionAgg } from '../jsonl/jsonl-session-reader.js';
import { isObj, num, str, type Obj } from '../jsonl/record-values.js';
import type { SourceUnit } from '../types.js';

export interface CopilotFileState {
  /** The folder name: `session-state/<sessionId>/events.jsonl`. */
  sessionId: string;
  /** Tool names of calls not yet completed (the completion event names only the call id). */
  pending: Record<string, string>;
}

/** workspace.yaml `name` (the first prompt, or the `/rename`) beats the first-prompt fallback. */
const TITLE_RANK = { prompt: 1, workspace: 2 } as const;

function place(agg: SessionAgg, context: unknown): void {
  if (!isObj(context)) return;
  const cwd = str(context.cwd);
  if (cwd) agg.cwd = cwd;
  // Outside a git repository the context has no branch: the session is on none.
  agg.gitBranch = str(context.branch) || null;
  const head = str(context.headCommit);
  if (head) agg.gitCommit = head;
}

function toolResultText(d: Obj): string {
  const result = isObj(d.result) ? d.result : null;
  if (result && typeof result.content === 'string') return result.content;
  if (isObj(d.error) && typeof d.error.message === 'string') return d.error.message;
  return result ? JSON.stringify(result) : '';
}

export class CopilotParser implements RecordParser<CopilotFileState> {
  constructor(private readonly workspaceName: (sessionId: string) => string | null) {}

  init(unit: SourceUnit): CopilotFileState {
    return { sessionId: path.basename(path.dirname(unit.path)), pending: {} };
  }

  handle(rec: TailRecord, st: CopilotFileState, sink: RecordSink): void {
    const r = rec.value;
    const d = isObj(r.data) ? r.data : null;
    if (!d) return;
    const agg = sink.session(st.sessionId);
    const ts = str(r.timestamp);
    const id = str(r.id);
    noteTimestamp(agg, ts);
    const inSubagent = str(d.parentToolCallId) !== null;
    switch (r.type) {
      case 'session.start':
      case 'session.resume':
        place(agg, d.context);
        if (str(d.selectedModel)) agg.model = str(d.selectedModel);
        return;
      case 'session.model_change':
        if (d.source !== 'agent' && str(d.newModel)) agg.model = str(d.newModel);
        return;
      case 'user.message': {
        const text = str(d.content) ?? '';
        if (text.length === 0) return;
        if (str(d.source) !== null) {
          // A subagent's task (source `agent-<parent id>`): not typed by the user.
          sink.push(agg, 'system', 'text', text, null, null, false, ts, id);
          return;
        }
        agg.userTurns++;
        if (agg.firstPrompt === null) {
          agg.firstPrompt = text;
          setTitle(agg, text, TITLE_RANK.prompt);
        }
        sink.push(agg, 'user', 'text', text, null, null, false, ts, id);
        return;
      }
      case 'assistant.message': {
        if (inSubagent) return;
        const reasoning = str(d.reasoningText);
        if (reasoning) sink.push(agg, 'assistant', 'thinking', reasoning, null, null, false, ts, id);
        const content = str(d.content);
        if (content) sink.push(agg, 'assistant', 'text', content, null, null, false, ts, id);
        for (const call of Array.isArray(d.toolRequests) ? d.toolRequests : []) {
          if (!isObj(call)) continue;
          const name = str(call.name) ?? 'unknown';
          sink.addTool(agg, name);
          const callId = str(call.toolCallId);
          if (callId) st.pending[callId] = name;
          sink.push(agg, 'assistant', 'tool_call', JSON.stringify(call.arguments ?? {}), name, str(call.toolCallId), false, ts, id);
        }
        return;
      }
      case 'tool.execution_complete': {
        if (inSubagent) return;
        const failed = d.success === false;
        const callId = str(d.toolCallId);
        const name = callId ? (st.pending[callId] ?? null) : null;
        if (callId) delete st.pending[callId];
        sink.push(agg, 'tool', 'tool_result', toolResultText(d), name, callId, failed, ts, id);
        return;
      }
      case 'session.usage_record': {
        const u = isObj(d.usage) ? d.usage : null;
        if (!u) return;
        // Chat Completions counts: inputTokens include the cached part (as OpenAI reports it).
        const cacheRead = num(u.cacheReadTokens);
        const input = Math.max(0, num(u.inputTokens) - cacheRead);
        const output = num(u.outputTokens);
        const cacheWrite = num(u.cacheWriteTokens);
        agg.usage.input += input;
        agg.usage.output += output;
        agg.usage.cacheRead += cacheRead;
        agg.usage.cacheWrite += cacheWrite;
        // One record per model request (a subagent's too): the per-request rows give usage by day and context fill.
        const model = str(u.model);
        sink.usageEvent(agg, { key: id ?? `line:${rec.line}`, at: ts, model, input, output, cacheRead, cacheWrite, reasoning: 0, contextWindow: null, limits: null });
        return;
      }
      case 'session.compaction_complete': {
        const summary = str(d.summaryContent);
        sink.push(agg, 'system', 'text', summary || 'Conversation compacted', null, null, false, ts, id);
        return;
      }
      default:
      // turn bookkeeping, system prompts, model.* traces, shutdown metrics: not transcript.
    }
  }

  finish(agg: SessionAgg): void {
    const name = this.workspaceName(agg.nativeId);
    if (name) setTitle(agg, name, TITLE_RANK.workspace);
  }
}
