/**
 * OpenCode 1.x session → normalized Session + Messages. Shared by the SQLite reader (`session`,
 * `message`, `part` tables) and the legacy `storage/` JSON tree: both hold the same `MessageV2.Info`
 * and `MessageV2.Part` objects.
 *
 * Mapping: user text parts → user text (synthetic ones → system text; ignored ones dropped);
 * assistant text → text; reasoning → thinking; tool part → tool_call (text = JSON of the tool input,
 * faithful so briefs can find commands and file paths) + tool_result once completed/errored;
 * file attachments → a short text marker; bookkeeping parts (step-*, snapshot, patch, …) are skipped.
 */
import type { Message, Session, TokenUsage, UsageEvent } from '../../../../shared/model.js';
import { classifyApiError, limitRecord, reachedLimit } from '../limit-errors.js';

export type JsonObject = Record<string, unknown>;

/** The agents that write OpenCode's store: OpenCode itself and its fork Kilo Code (same schema). */
export type OpenCodeFamily = 'opencode' | 'kilo';

export interface OpenCodeSessionInfo {
  /** Which agent wrote the store: the prefix of the session ids Baton gives its sessions. */
  agent: OpenCodeFamily;
  id: string;
  parentId: string | null;
  directory: string | null;
  title: string | null;
  /** Epoch ms. */
  timeCreated: number | null;
  timeUpdated: number | null;
  /** `session.model` column JSON ({"id","providerID"}), newer builds only. */
  model: string | null;
}

export interface OpenCodeMessageRow {
  id: string;
  timeCreated: number | null;
  data: JsonObject;
}

export interface OpenCodePartRow {
  id: string;
  messageId: string;
  data: JsonObject;
}

export function asObject(value: unknown): JsonObject | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonObject) : null;
}

export function parseObject(text: unknown): JsonObject | null {
  if (typeof text !== 'string') return null;
  try {
    return asObject(JSON.parse(text));
  } catch {
    return null;
  }
}

export function str(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

export function num(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

/** Epoch ms (or seconds, detected by magnitude) → ISO-8601. */
export function isoFromEpoch(value: unknown): string | null {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) return null;
  const ms = value < 1e11 ? value * 1000 : value;
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

export function stringify(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}

function modelFromColumn(model: string | null): string | null {
  const obj = parseObject(model);
  if (!obj) return model && model.trim() ? model : null;
  const id = str(obj.id) ?? str(obj.modelID);
  const provider = str(obj.providerID);
  return id ? (provider ? `${provider}/${id}` : id) : null;
}

export interface NormalizedSession {
  session: Session;
  messages: Message[];
  /** Limit hits the assistant messages record (OpenCode keeps token totals per message, not per request). */
  usage: UsageEvent[];
}

export function normalizeOpenCodeSession(
  info: OpenCodeSessionInfo,
  messageRows: OpenCodeMessageRow[],
  partRows: OpenCodePartRow[],
  sourcePath: string,
  bytes: number,
): NormalizedSession {
  const sessionId = `${info.agent}:${info.id}`;
  const partsByMessage = new Map<string, OpenCodePartRow[]>();
  for (const p of partRows) {
    const list = partsByMessage.get(p.messageId);
    if (list) list.push(p);
    else partsByMessage.set(p.messageId, [p]);
  }
  for (const list of partsByMessage.values()) list.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const ordered = [...messageRows].sort(
    (a, b) => (a.timeCreated ?? 0) - (b.timeCreated ?? 0) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );

  const t = emptyTally();
  const { messages, toolNames } = t;

  const push = (m: Omit<Message, 'sessionId' | 'seq'>) => {
    messages.push({ sessionId, seq: messages.length, ...m });
  };

  for (const row of ordered) {
    const data = row.data;
    const role = str(data.role);
    const time = asObject(data.time);
    const created = num(time?.created) || row.timeCreated || null;
    noteTime(t, created);
    const messageTs = isoFromEpoch(created);
    if (role === 'assistant') {
      addTokens(t.usage, data.tokens);
      noteLimitHit(t, sessionId, row.id, messageTs, data.error);
      const modelId = str(data.modelID);
      if (modelId) t.model = str(data.providerID) ? `${str(data.providerID)}/${modelId}` : modelId;
    }
    const promptParts: string[] = [];
    for (const part of partsByMessage.get(row.id) ?? []) {
      const p = part.data;
      const partTime = asObject(p.time);
      const ts = isoFromEpoch(partTime?.start) ?? messageTs;
      switch (str(p.type)) {
        case 'text': {
          if (p.ignored === true) break;
          const text = str(p.text) ?? '';
          if (role === 'user') {
            if (p.synthetic === true) push({ role: 'system', kind: 'text', text, toolName: null, toolCallId: null, isError: false, timestamp: ts, nativeId: part.id });
            else {
              promptParts.push(text);
              push({ role: 'user', kind: 'text', text, toolName: null, toolCallId: null, isError: false, timestamp: ts, nativeId: part.id });
            }
          } else {
            push({ role: 'assistant', kind: 'text', text, toolName: null, toolCallId: null, isError: false, timestamp: ts, nativeId: part.id });
          }
          break;
        }
        case 'reasoning':
          push({ role: 'assistant', kind: 'thinking', text: str(p.text) ?? '', toolName: null, toolCallId: null, isError: false, timestamp: ts, nativeId: part.id });
          break;
        case 'tool': {
          const tool = str(p.tool) ?? 'unknown';
          const callId = str(p.callID);
          const state = asObject(p.state);
          const status = str(state?.status);
          const stateTime = asObject(state?.time);
          if (!toolNames.includes(tool)) toolNames.push(tool);
          push({ role: 'assistant', kind: 'tool_call', text: stringify(state?.input ?? {}), toolName: tool, toolCallId: callId, isError: false, timestamp: isoFromEpoch(stateTime?.start) ?? ts, nativeId: part.id });
          if (status === 'completed' || status === 'error') {
            const isError = status === 'error';
            push({
              role: 'tool',
              kind: 'tool_result',
              text: stringify(isError ? state?.error : state?.output),
              toolName: tool,
              toolCallId: callId,
              isError,
              timestamp: isoFromEpoch(stateTime?.end) ?? ts,
              nativeId: part.id,
            });
          }
          break;
        }
        case 'file': {
          const name = str(p.filename) ?? str(p.url)?.slice(0, 200) ?? 'file';
          push({ role: role === 'assistant' ? 'assistant' : 'user', kind: 'text', text: `[file: ${name}${str(p.mime) ? ` (${str(p.mime)})` : ''}]`, toolName: null, toolCallId: null, isError: false, timestamp: ts, nativeId: part.id });
          break;
        }
        case 'subtask':
          push({ role: 'system', kind: 'text', text: str(p.prompt) ?? str(p.description) ?? '', toolName: null, toolCallId: null, isError: false, timestamp: ts, nativeId: part.id });
          break;
        default:
          // step-start, step-finish, snapshot, patch, agent, retry, compaction: bookkeeping only.
          break;
      }
    }
    if (role === 'user' && promptParts.length > 0) {
      t.userTurns++;
      t.firstPrompt ??= promptParts.join('\n');
    }
  }

  return { session: openCodeSession(info, t, sourcePath, bytes), messages, usage: t.limits };
}

/** What reading a session's messages gathered (both OpenCode generations). */
export interface SessionTally {
  messages: Message[];
  toolNames: string[];
  usage: TokenUsage;
  firstPrompt: string | null;
  userTurns: number;
  /** The model of the last assistant message, `provider/id`. */
  model: string | null;
  /** Latest message time (epoch ms). */
  lastTime: number | null;
  /** Limit hits (token-less usage records). */
  limits: UsageEvent[];
}

export function emptyTally(): SessionTally {
  return { messages: [], toolNames: [], usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0 }, firstPrompt: null, userTurns: 0, model: null, lastTime: null, limits: [] };
}

/**
 * OpenCode 1.18 keeps a failed request on the assistant message: `error: {name: "APIError", data:
 * {message, statusCode: 429, responseHeaders, responseBody}}`. A limit is a hit, with the reset time
 * the provider's headers give (Codex's `x-codex-primary-reset-at`, Anthropic's unified reset, `retry-after`).
 */
export function noteLimitHit(t: SessionTally, sessionId: string, messageId: string, at: string | null, value: unknown): void {
  const err = asObject(value);
  const data = asObject(err?.data);
  if (!err || !data) return;
  const text = str(data.message) ?? '';
  const body = str(data.responseBody) ?? '';
  let type: string | null = null;
  try {
    const parsed = asObject(asObject(JSON.parse(body) as unknown)?.error);
    type = str(parsed?.type) ?? str(parsed?.code) ?? str(parsed?.status);
  } catch {
    // not JSON
  }
  const status = typeof data.statusCode === 'number' ? data.statusCode : null;
  const verdict = classifyApiError({ status, type, text: `${text} ${body}` });
  if (verdict.class !== 'limit') return;
  const headers = asObject(data.responseHeaders);
  const limit = reachedLimit(verdict.kind, text, resetFromHeaders(headers, at));
  t.limits.push({ sessionId, ...limitRecord(`limit:${messageId}`, at, limit) });
}

/** A reset time from a provider's response headers (epoch seconds, or seconds from the response). */
function resetFromHeaders(h: Record<string, unknown> | null, at: string | null): string | null {
  if (!h) return null;
  for (const name of ['x-codex-primary-reset-at', 'anthropic-ratelimit-unified-reset']) {
    const epoch = Number(h[name]);
    if (Number.isFinite(epoch) && epoch > 1e9) return new Date(epoch * 1000).toISOString();
  }
  const after = Number(h['x-codex-primary-reset-after-seconds'] ?? h['retry-after']);
  const base = at ? Date.parse(at) : Number.NaN;
  return Number.isFinite(after) && after > 0 && Number.isFinite(base) ? new Date(base + after * 1000).toISOString() : null;
}

/** Adds an assistant message's `tokens` ({input, output, reasoning, cache: {read, write}}), and keeps it as the latest request. */
export function addTokens(usage: TokenUsage, value: unknown): void {
  const tokens = asObject(value);
  const cache = asObject(tokens?.cache);
  usage.input += num(tokens?.input);
  usage.output += num(tokens?.output);
  usage.reasoning += num(tokens?.reasoning);
  usage.cacheRead += num(cache?.read);
  usage.cacheWrite += num(cache?.write);
  // Messages come oldest first: the latest request's prompt side is what the context holds now.
  const prompt = { input: num(tokens?.input), cacheRead: num(cache?.read), cacheWrite: num(cache?.write) };
  if (prompt.input + prompt.cacheRead + prompt.cacheWrite > 0) usage.lastRequest = prompt;
}

export function noteTime(t: SessionTally, epochMs: number | null): void {
  if (epochMs && (t.lastTime === null || epochMs > t.lastTime)) t.lastTime = epochMs;
}

export function openCodeSession(info: OpenCodeSessionInfo, t: SessionTally, sourcePath: string, bytes: number): Session {
  const updated = Math.max(info.timeUpdated ?? 0, t.lastTime ?? 0);
  return {
    id: `${info.agent}:${info.id}`,
    agent: info.agent,
    nativeId: info.id,
    title: info.title && info.title.trim() ? info.title : null,
    cwd: info.directory && info.directory.trim() ? info.directory : null,
    gitBranch: null, // OpenCode (and Kilo) store none.
    gitCommit: null,
    model: t.model ?? modelFromColumn(info.model),
    startedAt: isoFromEpoch(info.timeCreated),
    updatedAt: isoFromEpoch(updated),
    firstPrompt: t.firstPrompt,
    userTurns: t.userTurns,
    messageCount: t.messages.length,
    toolNames: t.toolNames,
    usage: t.usage,
    parentId: info.parentId ? `${info.agent}:${info.parentId}` : null,
    // OpenCode's child sessions are the task tool's subagents.
    ...(info.parentId ? { parentKind: 'subagent' as const } : {}),
    sourcePath,
    bytes,
  };
}
