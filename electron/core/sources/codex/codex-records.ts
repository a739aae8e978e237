/**
 * Codex CLI rollout lines → normalized messages and session aggregates. Handles the current
 * `{timestamp, type, payload}` envelope and the pre-2025-09 bare format (no `payload`), several
 * `session_meta` lines (the first is canonical), user turns recorded both as `response_item` and as
 * `event_msg/user_message` (counted once), tool calls paired with their outputs by `call_id`.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { TailRecord } from '../jsonl/jsonl-tail.js';
import { noteTimestamp, setTitle, type RecordParser, type RecordSink, type SessionAgg } from '../jsonl/jsonl-session-reader.js';
import type { SourceUnit } from '../types.js';
import { isObj, num, str, type Obj } from '../jsonl/record-values.js';
import type { ThreadNames } from './codex-titles.js';
import type { UsageLimit } from '../../../../shared/model.js';
import { codexLineShortcut } from './codex-line-shortcut.js';
import { classifyApiError, reachedLimit } from '../limit-errors.js';

/** Title precedence: rename in session_index.jsonl > thread_name_updated > threads.name > threads.title. */
export const TITLE_RANK = { dbTitle: 1, dbName: 2, event: 3, index: 4 } as const;

export interface CodexFileState {
  /** Native session id once known (first session_meta, else the uuid in the file name). */
  sessionId: string | null;
  fileId: string;
  metaSeen: boolean;
  /** Last user prompt counted, as [record kind, hash of text]: the same prompt seen as the other
   *  kind right after is the duplicate record of the same turn. */
  lastUser: [string, string] | null;
  /** Recent call_id → tool name, bounded. */
  calls: [string, string][];
  /** The last rate-limit report that found a window exhausted: its record key and limits, so the
   *  turn's `task_complete` error lands on the same record (one hit, with the window's reset). */
  exhausted?: [string, UsageLimit[]] | null;
}

const MAX_RECENT_CALLS = 128;
export const UUID_AT_END = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl(?:\.zst)?$/i;

/** Harness-injected context sent with role "user" that is not something the user typed. */
const INJECTED_PREFIXES = [
  '<environment_context>',
  '<user_instructions>',
  '# AGENTS.md instructions',
  '<permissions instructions>',
  '<user_shell_command>',
  '<turn_aborted>',
  '<skills_instructions>',
  '<subagent_notification>',
  '<INSTRUCTIONS>',
];

export function isInjected(text: string): boolean {
  const c = text.charCodeAt(0);
  if (c !== 60 /* < */ && c !== 35 /* # */) return false;
  for (const p of INJECTED_PREFIXES) if (text.startsWith(p)) return true;
  return false;
}

/** Text of message content / tool output items: `input_text`, `output_text`, images. */
function itemsText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const parts: string[] = [];
  for (const c of content) {
    if (!isObj(c)) continue;
    if (typeof c.text === 'string') parts.push(c.text);
    else if (c.type === 'input_image' || c.type === 'image') parts.push('[image]');
  }
  return parts.join('\n');
}

const EXIT_CODE = /(?:Process exited with code|Exit code:?)\s*(-?\d+)/;

/** A tool output's text and whether it failed (exit code or success flag, where recorded). */
function toolOutput(output: unknown): { text: string; isError: boolean } {
  if (isObj(output)) {
    // Older builds: {content, success}.
    return { text: typeof output.content === 'string' ? output.content : itemsText(output.content), isError: output.success === false };
  }
  let text = itemsText(output);
  let exit: number | null = null;
  if (text.startsWith('{"output"')) {
    // Older shell outputs: a JSON string {"output": "...", "metadata": {"exit_code": N}}.
    try {
      const parsed = JSON.parse(text) as unknown;
      if (isObj(parsed) && typeof parsed.output === 'string') {
        text = parsed.output;
        if (isObj(parsed.metadata) && typeof parsed.metadata.exit_code === 'number') exit = parsed.metadata.exit_code;
      }
    } catch {
      // Not that shape after all: keep the raw text.
    }
  }
  if (exit === null) {
    const m = EXIT_CODE.exec(text.length > 400 ? text.slice(0, 400) : text);
    if (m) exit = Number(m[1]);
  }
  return { text, isError: exit !== null && exit !== 0 };
}

function hashText(text: string): string {
  return createHash('sha1').update(text).digest('base64');
}

/** Top-level record types `handle` reads more than a timestamp from (keep in step with its switch). */
export const RECORD_TYPES_READ: ReadonlySet<string> = new Set(['session_meta', 'response_item', 'event_msg', 'turn_context', 'compacted']);
/** `event_msg` payload types `event` reads (keep in step with its switch). */
export const EVENT_TYPES_READ: ReadonlySet<string> = new Set(['user_message', 'token_count', 'thread_name_updated', 'error', 'stream_error', 'task_complete']);

export class CodexParser implements RecordParser<CodexFileState> {
  readonly shortcut = codexLineShortcut(RECORD_TYPES_READ, EVENT_TYPES_READ);

  constructor(private readonly names: (id: string) => ThreadNames) {}

  init(unit: SourceUnit): CodexFileState {
    const m = UUID_AT_END.exec(unit.path);
    const fileId = m ? m[1]!.toLowerCase() : path.basename(unit.path).replace(/\.jsonl(\.zst)?$/, '');
    return { sessionId: null, fileId, metaSeen: false, lastUser: null, calls: [] };
  }

  finish(agg: SessionAgg): void {
    const n = this.names(agg.nativeId);
    if (n.dbTitle) setTitle(agg, n.dbTitle, TITLE_RANK.dbTitle);
    if (n.dbName) setTitle(agg, n.dbName, TITLE_RANK.dbName);
    if (n.indexName) setTitle(agg, n.indexName, TITLE_RANK.index);
  }

  handle(rec: TailRecord, st: CodexFileState, sink: RecordSink): void {
    const r = rec.value;
    const payload = r.payload;
    if (!isObj(payload)) {
      this.legacy(r, st, sink);
      return;
    }
    const ts = str(r.timestamp);
    switch (r.type) {
      case 'session_meta':
        this.meta(payload, ts, st, sink);
        return;
      case 'response_item': {
        const agg = this.session(st, sink, ts);
        this.responseItem(payload, agg, st, sink, ts);
        return;
      }
      case 'event_msg': {
        const agg = this.session(st, sink, ts);
        this.event(payload, agg, st, sink, ts);
        return;
      }
      case 'turn_context': {
        const agg = this.session(st, sink, ts);
        const cwd = str(payload.cwd);
        if (cwd) agg.cwd = cwd;
        const model = str(payload.model);
        if (model) agg.model = model;
        return;
      }
      case 'compacted': {
        const agg = this.session(st, sink, ts);
        const text = str(payload.message);
        if (text) sink.emit(agg, { role: 'system', kind: 'text', text, timestamp: ts });
        return;
      }
      default:
        // world_state, token_usage_record, inter_agent_*, …: nothing a transcript reader needs.
        if (st.sessionId !== null) noteTimestamp(this.session(st, sink, null), ts);
    }
  }

  /** Pre-2025-09 rollouts: a bare SessionMeta first, then bare ResponseItems and state markers. */
  private legacy(r: Obj, st: CodexFileState, sink: RecordSink): void {
    if (r.record_type === 'state') return;
    if (!st.metaSeen && st.sessionId === null && typeof r.id === 'string' && typeof r.type !== 'string') {
      this.meta(r, str(r.timestamp), st, sink);
      return;
    }
    if (typeof r.type === 'string') this.responseItem(r, this.session(st, sink, null), st, sink, null);
  }

  private session(st: CodexFileState, sink: RecordSink, ts: string | null): SessionAgg {
    if (st.sessionId === null) st.sessionId = st.fileId;
    const agg = sink.session(st.sessionId);
    noteTimestamp(agg, ts);
    return agg;
  }

  private meta(p: Obj, ts: string | null, st: CodexFileState, sink: RecordSink): void {
    if (st.metaSeen) return; // resumed/forked rollouts repeat session_meta: the first is canonical
    st.metaSeen = true;
    if (st.sessionId === null) st.sessionId = str(p.id) ?? str(p.session_id) ?? st.fileId;
    const agg = this.session(st, sink, ts);
    noteTimestamp(agg, str(p.timestamp));
    const cwd = str(p.cwd);
    if (cwd) agg.cwd = cwd;
    if (isObj(p.git)) {
      agg.gitBranch = str(p.git.branch) || null;
      agg.gitCommit = str(p.git.commit_hash) || null;
    }
    const forkedFrom = str(p.forked_from_id);
    const parent = forkedFrom ?? str(p.parent_thread_id) ?? subagentParent(p.source);
    if (parent && parent !== st.sessionId) {
      agg.parentId = parent;
      // A fork copies its source's history; a thread a parent spawned is a subagent.
      agg.parentKind = forkedFrom ? 'fork' : 'subagent';
    }
  }

  private userPrompt(text: string, kind: string, agg: SessionAgg, st: CodexFileState, sink: RecordSink, ts: string | null, nativeId: string | null): void {
    const h = hashText(text);
    const last = st.lastUser;
    if (last && last[0] !== kind && last[1] === h) {
      st.lastUser = null; // the other record of a turn already counted
      return;
    }
    st.lastUser = [kind, h];
    agg.userTurns++;
    if (agg.firstPrompt === null) agg.firstPrompt = text;
    sink.emit(agg, { role: 'user', kind: 'text', text, timestamp: ts, nativeId });
  }

  private responseItem(p: Obj, agg: SessionAgg, st: CodexFileState, sink: RecordSink, ts: string | null): void {
    const type = str(p.type);
    const id = str(p.id);
    switch (type) {
      case 'message': {
        const text = itemsText(p.content);
        if (text.length === 0) return;
        if (p.role === 'user') {
          if (!isInjected(text)) this.userPrompt(text, 'item', agg, st, sink, ts, id);
        } else if (p.role === 'assistant') {
          sink.emit(agg, { role: 'assistant', kind: 'text', text, timestamp: ts, nativeId: id });
        }
        // developer/system messages are harness instructions, not conversation.
        return;
      }
      case 'reasoning': {
        let text = itemsText(p.summary);
        if (text.length === 0) text = itemsText(p.content);
        if (text.length > 0) sink.emit(agg, { role: 'assistant', kind: 'thinking', text, timestamp: ts, nativeId: id });
        return;
      }
      case 'function_call':
        this.call(qualifiedName(p) ?? 'function', str(p.arguments) ?? JSON.stringify(p.arguments ?? {}), p, agg, st, sink, ts);
        return;
      case 'custom_tool_call':
        this.call(str(p.name) ?? 'custom_tool', str(p.input) ?? JSON.stringify(p.input ?? null), p, agg, st, sink, ts);
        return;
      case 'local_shell_call':
        this.call('local_shell', JSON.stringify(p.action ?? null), p, agg, st, sink, ts);
        return;
      case 'web_search_call':
        this.call('web_search', JSON.stringify(p.action ?? null), p, agg, st, sink, ts);
        return;
      default:
        if (type === null) return;
        if (type.endsWith('_call_output')) this.result(p, agg, st, sink, ts);
        else if (type.endsWith('_call')) this.call(str(p.name) ?? type.slice(0, -5), JSON.stringify(p.arguments ?? p.input ?? p.action ?? null), p, agg, st, sink, ts);
    }
  }

  private call(name: string, input: string, p: Obj, agg: SessionAgg, st: CodexFileState, sink: RecordSink, ts: string | null): void {
    const callId = str(p.call_id) ?? str(p.id);
    sink.addTool(agg, name);
    if (callId) {
      st.calls.push([callId, name]);
      if (st.calls.length > MAX_RECENT_CALLS) st.calls.shift();
    }
    sink.emit(agg, { role: 'assistant', kind: 'tool_call', text: input, toolName: name, toolCallId: callId, timestamp: ts, nativeId: str(p.id) });
  }

  private result(p: Obj, agg: SessionAgg, st: CodexFileState, sink: RecordSink, ts: string | null): void {
    const callId = str(p.call_id);
    let name: string | null = null;
    if (callId) {
      for (let i = st.calls.length - 1; i >= 0; i--) {
        if (st.calls[i]![0] === callId) {
          name = st.calls[i]![1];
          break;
        }
      }
    }
    const out = toolOutput(p.output);
    sink.emit(agg, { role: 'tool', kind: 'tool_result', text: out.text, toolName: name, toolCallId: callId, isError: out.isError, timestamp: ts, nativeId: str(p.id) });
  }

  private event(p: Obj, agg: SessionAgg, st: CodexFileState, sink: RecordSink, ts: string | null): void {
    switch (p.type) {
      case 'user_message': {
        const text = str(p.message);
        if (text && !isInjected(text)) this.userPrompt(text, 'event', agg, st, sink, ts, null);
        return;
      }
      case 'token_count': {
        // total_token_usage is cumulative for the session: take the latest, never sum.
        const info = p.info;
        if (!isObj(info) || !isObj(info.total_token_usage)) {
          // `info` is null when the event only reports the rate limits.
          const limits = codexLimits(p.rate_limits);
          const key = `rl:${ts ?? agg.seq}`;
          if (limits) sink.usageEvent(agg, { ...NO_TOKENS, key, at: ts, limits });
          st.exhausted = limits?.some((l) => l.name === 'reached') ? [key, limits] : null;
          return;
        }
        const t = info.total_token_usage;
        const cached = num(t.cached_input_tokens);
        agg.usage = {
          input: Math.max(0, num(t.input_tokens) - cached),
          output: num(t.output_tokens),
          cacheRead: cached,
          cacheWrite: num(t.cache_write_input_tokens),
          reasoning: num(t.reasoning_output_tokens),
        };
        st.exhausted = noteRequestUsage(agg, sink, ts, info, p.rate_limits);
        return;
      }
      case 'error':
      case 'stream_error':
      case 'task_complete': {
        // 0.169: `task_complete.error {message: "You've hit your usage limit…", codex_error_info:
        // "usage_limit_exceeded"}`; older builds an `error` event ("… try again at 7:05 PM").
        const err = p.type === 'task_complete' ? (isObj(p.error) ? p.error : null) : p;
        if (!err) return;
        const text = str(err.message) ?? '';
        const info = str(err.codex_error_info);
        const verdict = classifyApiError({ code: info, text, status: info ? undefined : null });
        if (verdict.class !== 'limit') return;
        // The exhausted window reported just before (same turn) names the window and its reset.
        const [key, windows] = st.exhausted ?? [`limit:${ts ?? agg.seq}`, []];
        const window = windows.find((l) => l.name === 'reached');
        const hit = reachedLimit(verdict.kind, text, window?.resetsAt ?? null, { window: window?.window ?? null, windowMinutes: window?.windowMinutes ?? null });
        // Same key: the record keeps its time and tokens (the index keeps the first time, the largest counts).
        sink.usageEvent(agg, { ...NO_TOKENS, key, at: ts, limits: [...windows.filter((l) => l.name !== 'reached'), hit] });
        st.exhausted = null;
        return;
      }
      case 'thread_name_updated': {
        const name = str(p.thread_name);
        if (name) setTitle(agg, name, TITLE_RANK.event);
        return;
      }
      default:
      // agent_message / agent_reasoning / item_completed repeat response items; the rest is UI state.
    }
  }
}

/**
 * An MCP tool is called as `{namespace: "mcp__<server>", name: "<tool>"}`: named `mcp__<server>__<tool>`,
 * as Claude Code names it, so the server is not lost (Baton's own tools are recognised by it).
 */
function qualifiedName(p: Obj): string | null {
  const name = str(p.name);
  const ns = str(p.namespace);
  return name && ns?.startsWith('mcp__') && !name.startsWith(ns) ? `${ns}__${name}` : name;
}

/** `source: {"subagent": {...}}` names the parent thread somewhere inside. */
function subagentParent(source: unknown): string | null {
  if (!isObj(source) || !isObj(source.subagent)) return null;
  const sub = source.subagent;
  const direct = str(sub.parent_thread_id);
  if (direct) return direct;
  for (const v of Object.values(sub)) {
    if (isObj(v)) {
      const id = str(v.parent_thread_id);
      if (id) return id;
    }
  }
  return null;
}

const NO_TOKENS = { model: null, input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0, contextWindow: null } as const;

/**
 * One request of a `token_count` event: `last_token_usage` (never a difference of cumulative totals).
 * Codex repeats an event when nothing changed; the cumulative total is the key, so a repeat
 * lands on the same record.
 */
function noteRequestUsage(agg: SessionAgg, sink: RecordSink, ts: string | null, info: Obj, rateLimits: unknown): [string, UsageLimit[]] | null {
  const last = info.last_token_usage;
  const total = info.total_token_usage;
  if (!isObj(last) || !isObj(total)) return null;
  const cached = num(last.cached_input_tokens);
  const window = num(info.model_context_window);
  const limits = codexLimits(rateLimits);
  const key = `tc:${num(total.total_tokens) || num(total.input_tokens) + num(total.output_tokens)}`;
  sink.usageEvent(agg, {
    key,
    at: ts,
    model: agg.model,
    input: Math.max(0, num(last.input_tokens) - cached),
    output: num(last.output_tokens),
    cacheRead: cached,
    cacheWrite: num(last.cache_write_input_tokens),
    reasoning: num(last.reasoning_output_tokens),
    contextWindow: window > 0 ? window : null,
    limits,
  });
  return limits?.some((l) => l.name === 'reached') ? [key, limits] : null;
}

/** `rate_limits.primary/secondary`: used percent, window minutes, reset time (epoch seconds). */
function codexLimits(value: unknown): UsageLimit[] | null {
  if (!isObj(value)) return null;
  const out: UsageLimit[] = [];
  for (const name of ['primary', 'secondary'] as const) {
    const w = value[name];
    if (!isObj(w)) continue;
    const resets = num(w.resets_at);
    out.push({
      name,
      usedPercent: typeof w.used_percent === 'number' ? w.used_percent : null,
      windowMinutes: typeof w.window_minutes === 'number' ? w.window_minutes : null,
      resetsAt: resets > 0 ? new Date(resets * 1000).toISOString() : null,
      note: null,
    });
  }
  // A window used up (`used_percent: 100`) is a hit of that window; newer builds also say which
  // limit stopped the session (`rate_limit_reached_type`).
  const reached = value.rate_limit_reached_type;
  const full = out.find((l) => (l.usedPercent ?? 0) >= 100);
  if ((typeof reached === 'string' && reached.length > 0) || full) {
    const w = full ?? out[0];
    const note = typeof reached === 'string' && reached ? `Codex rate limit reached (${reached})` : `Codex ${w?.name ?? ''} usage window at 100 %`;
    out.push(reachedLimit('usage_limit', note, w?.resetsAt ?? null, { window: w?.name ?? null, windowMinutes: w?.windowMinutes ?? null }));
  }
  return out.length > 0 ? out : null;
}
