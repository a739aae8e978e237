/**
 * A Cline transcript (`<id>.messages.json`, or a subagent's `agent_<id>.messages.json` in its
 * parent's folder) with its manifest (`<id>.json`) → normalized Session + Messages + per-request
 * usage. Messages are Anthropic-style blocks: `text`, `thinking`, `tool_use`, `tool_result` (tool
 * results are user-role messages). Every prompt is stored wrapped in `<user_input mode="…">`.
 */
import type { Message, Session, UsageEvent } from '../../../../shared/model.js';

export type JsonObject = Record<string, unknown>;

export function asObject(value: unknown): JsonObject | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonObject) : null;
}
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/** The transcript format version this reader knows. */
export const KNOWN_VERSION = 1;

const WRAPPED = /^<user_input(?:\s+mode="[^"]*")?>([\s\S]*)<\/user_input>$/;

/** The prompt as the user typed it: Cline's `<user_input mode="act">` wrapper removed. */
export function unwrapPrompt(text: string): string {
  const m = WRAPPED.exec(text.trim());
  return m ? m[1]! : text;
}

function iso(value: unknown): string | null {
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) return new Date(value).toISOString();
  if (typeof value === 'string' && !Number.isNaN(Date.parse(value))) return new Date(value).toISOString();
  return null;
}

function stringify(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}

/** A tool result's text: a JSON string as stored, or the `{query, result, success}` list's results. */
function resultText(content: unknown): string {
  if (!Array.isArray(content)) return stringify(content);
  return content
    .map((c) => {
      const o = asObject(c);
      if (!o) return stringify(c);
      if (typeof o.text === 'string') return o.text;
      const query = str(o.query);
      return query !== null ? `${query}\n${stringify(o.result)}` : stringify(o);
    })
    .join('\n');
}

export interface ClineIds {
  /** The transcript's session id (`<parent>__agent_<agent>` for a subagent). */
  nativeId: string;
  /** The lead session's id, for a subagent transcript. */
  parentNativeId: string | null;
}

export interface NormalizedCline {
  session: Session;
  messages: Message[];
  usage: UsageEvent[];
}

export function normalizeCline(ids: ClineIds, doc: JsonObject, manifest: JsonObject | null, sourcePath: string, bytes: number): NormalizedCline {
  const sessionId = `cline:${ids.nativeId}`;
  const messages: Message[] = [];
  const usage: UsageEvent[] = [];
  const toolNames: string[] = [];
  const total = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0 };
  let firstPrompt: string | null = null;
  let userTurns = 0;
  let model: string | null = null;
  let firstTs: string | null = null;
  let lastTs: string | null = null;
  const push = (m: Omit<Message, 'sessionId' | 'seq'>) => messages.push({ sessionId, seq: messages.length, ...m });

  const list = Array.isArray(doc.messages) ? doc.messages : [];
  for (const [index, raw] of list.entries()) {
    const m = asObject(raw);
    if (!m) continue;
    const role = str(m.role);
    const ts = iso(m.ts);
    if (ts) {
      firstTs ??= ts;
      lastTs = ts;
    }
    const nativeId = str(m.id) ?? String(index);
    const blocks = Array.isArray(m.content) ? m.content : typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : [];
    const prompt: string[] = [];
    for (const b of blocks) {
      const block = asObject(b);
      if (!block) continue;
      const base = { toolName: null, toolCallId: null, isError: false, timestamp: ts, nativeId };
      switch (str(block.type)) {
        case 'text': {
          const text = str(block.text) ?? '';
          if (role === 'user') {
            const typed = unwrapPrompt(text);
            prompt.push(typed);
            push({ ...base, role: 'user', kind: 'text', text: typed });
          } else push({ ...base, role: 'assistant', kind: 'text', text });
          break;
        }
        case 'thinking':
          push({ ...base, role: 'assistant', kind: 'thinking', text: str(block.thinking) ?? str(block.text) ?? '' });
          break;
        case 'tool_use': {
          const name = str(block.name) ?? 'unknown';
          if (!toolNames.includes(name)) toolNames.push(name);
          push({ ...base, role: 'assistant', kind: 'tool_call', text: stringify(block.input ?? {}), toolName: name, toolCallId: str(block.id) });
          break;
        }
        case 'tool_result':
          push({ ...base, role: 'tool', kind: 'tool_result', text: resultText(block.content), toolName: str(block.name), toolCallId: str(block.tool_use_id), isError: block.is_error === true });
          break;
        default:
          break; // images and other blocks carry no text Baton indexes
      }
    }
    if (role === 'user' && prompt.length > 0) {
      userTurns++;
      firstPrompt ??= prompt.join('\n');
    }
    if (role === 'assistant') {
      const info = asObject(m.modelInfo);
      if (str(info?.id)) model = str(info?.id);
      const metrics = asObject(m.metrics);
      if (metrics) {
        const event = {
          input: num(metrics.inputTokens),
          output: num(metrics.outputTokens),
          cacheRead: num(metrics.cacheReadTokens),
          cacheWrite: num(metrics.cacheWriteTokens),
          reasoning: num(metrics.reasoningTokens),
        };
        total.input += event.input;
        total.output += event.output;
        total.cacheRead += event.cacheRead;
        total.cacheWrite += event.cacheWrite;
        total.reasoning += event.reasoning;
        usage.push({ sessionId, key: nativeId, at: ts, model: str(info?.id), ...event, contextWindow: null, limits: null });
      }
    }
  }

  const meta = asObject(manifest?.metadata);
  const isSub = ids.parentNativeId !== null;
  const title = isSub ? null : str(meta?.title);
  const cwd = str(manifest?.cwd) ?? str(manifest?.workspace_root);
  const session: Session = {
    id: sessionId,
    agent: 'cline',
    nativeId: ids.nativeId,
    title: title && title.trim() ? title : null,
    cwd: cwd && cwd.trim() ? cwd : null,
    // A subagent's transcript names no branch; its parent's manifest does, for the parent.
    gitBranch: isSub ? null : str(asObject(meta?.git)?.branch),
    gitCommit: null,
    model: model ?? str(manifest?.model),
    startedAt: (isSub ? null : iso(manifest?.started_at)) ?? firstTs,
    updatedAt: lastTs ?? iso(doc.updated_at),
    firstPrompt,
    userTurns,
    messageCount: messages.length,
    toolNames,
    usage: total,
    parentId: ids.parentNativeId ? `cline:${ids.parentNativeId}` : null,
    ...(isSub ? { parentKind: 'subagent' as const } : {}),
    sourcePath,
    bytes,
  };
  return { session, messages, usage };
}
