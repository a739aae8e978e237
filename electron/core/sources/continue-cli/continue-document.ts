/**
 * One Continue `cn` session document (`sessions/<id>.json`, rewritten whole after every turn) →
 * its session aggregate and its messages, in order. The document has no timestamps, no branch and
 * no CLI version; a tool's result lives only in the calling assistant item's `toolCallStates`.
 */
import type { MessageKind, MessageRole } from '../../../../shared/model.js';
import { newAgg, type SessionAgg } from '../jsonl/jsonl-session-reader.js';
import { isObj, num, str, type Obj } from '../jsonl/record-values.js';

export interface DocMessage {
  role: MessageRole;
  kind: MessageKind;
  text: string;
  toolName: string | null;
  toolCallId: string | null;
  isError: boolean;
}

export interface ContinueDocument {
  agg: SessionAgg;
  messages: DocMessage[];
}

/** Text of an OpenAI-style content: a string, or parts whose text is joined. */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((p) => (isObj(p) ? (str(p.text) ?? (p.type === 'imageUrl' || p.type === 'image_url' ? '[image]' : '')) : ''))
    .filter(Boolean)
    .join('\n');
}

function toolOutput(state: Obj): string {
  const out = Array.isArray(state.output) ? state.output.filter(isObj) : [];
  return out.map((o) => str(o.content) ?? '').join('\n');
}

/** Reads the parsed document; null when it is not a Continue session (no sessionId or history). */
export function readContinueDocument(doc: unknown): ContinueDocument | null {
  if (!isObj(doc) || typeof doc.sessionId !== 'string' || !Array.isArray(doc.history)) return null;
  const agg: SessionAgg = { ...newAgg(doc.sessionId), title: str(doc.title) || null, titleRank: 1, cwd: str(doc.workspaceDirectory) || null };
  const messages: DocMessage[] = [];
  const push = (role: MessageRole, kind: MessageKind, text: string, toolName: string | null = null, toolCallId: string | null = null, isError = false) =>
    messages.push({ role, kind, text, toolName, toolCallId, isError });
  let lastPrompt = 0;
  for (const item of doc.history) {
    if (!isObj(item) || !isObj(item.message)) continue;
    const m = item.message;
    const summary = str(item.conversationSummary);
    if (summary) {
      // `/compact` replaced the history with this summary: what came before is gone from the file.
      push('system', 'text', summary);
      continue;
    }
    const text = contentText(m.content);
    switch (m.role) {
      case 'user':
        if (text.length === 0) break;
        agg.userTurns++;
        if (agg.firstPrompt === null) agg.firstPrompt = text;
        push('user', 'text', text);
        break;
      case 'assistant': {
        if (isObj(m.usage) && str(m.usage.model)) agg.model = str(m.usage.model);
        // The latest reply's prompt (OpenAI's prompt_tokens, cached ones included) is what the context holds.
        if (isObj(m.usage) && num(m.usage.prompt_tokens) > 0) lastPrompt = num(m.usage.prompt_tokens);
        if (text.length > 0) push('assistant', 'text', text);
        const states = new Map<string, Obj>();
        for (const s of Array.isArray(item.toolCallStates) ? item.toolCallStates : []) if (isObj(s) && str(s.toolCallId)) states.set(str(s.toolCallId)!, s);
        for (const call of Array.isArray(m.toolCalls) ? m.toolCalls : []) {
          if (!isObj(call)) continue;
          const fn = isObj(call.function) ? call.function : {};
          const name = str(fn.name) ?? 'unknown';
          const id = str(call.id);
          if (agg.toolNames.length < 256 && !agg.toolNames.includes(name)) agg.toolNames.push(name);
          push('assistant', 'tool_call', str(fn.arguments) ?? '{}', name, id);
          const state = id ? states.get(id) : undefined;
          if (state) push('tool', 'tool_result', toolOutput(state), name, id, state.status === 'errored' || state.status === 'error');
        }
        break;
      }
      case 'system':
        if (text.length > 0) push('system', 'text', text);
        break;
      default:
      // Roles added later carry nothing we know how to show.
    }
  }
  if (agg.title === 'Untitled Session') agg.titleRank = 0; // cn's placeholder: kept as stored, never preferred
  const u = isObj(doc.usage) ? doc.usage : null;
  if (u) {
    const details = isObj(u.promptTokensDetails) ? u.promptTokensDetails : {};
    const cached = num(details.cachedTokens);
    agg.usage.input = Math.max(0, num(u.promptTokens) - cached);
    agg.usage.output = num(u.completionTokens);
    agg.usage.cacheRead = cached;
    agg.usage.cacheWrite = num(details.cacheWriteTokens);
    if (typeof u.totalCost === 'number' && Number.isFinite(u.totalCost)) agg.usage.costUsd = u.totalCost;
  }
  if (lastPrompt > 0) agg.usage.lastRequest = { input: lastPrompt, cacheRead: 0, cacheWrite: 0 };
  return { agg, messages };
}
