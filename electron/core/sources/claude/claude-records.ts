/**
 * Claude Code transcript lines → normalized messages and session aggregates.
 *
 * One parser instance serves the whole adapter: per-file state lives in the cursor (`ClaudeFileState`),
 * the only shared memory is a bounded uuid → session map used to drop entries that resume/fork copied
 * into another session's file. Plain type guards only: this runs once per line on the hot path.
 */
import path from 'node:path';
import type { TailRecord } from '../jsonl/jsonl-tail.js';
import { noteTimestamp, setTitle, type RecordParser, type RecordSink, type SessionAgg } from '../jsonl/jsonl-session-reader.js';
import type { SourceUnit } from '../types.js';
import { isObj, num, str, type Obj } from '../jsonl/record-values.js';
import { RecentOwners } from '../jsonl/recent-owners.js';
import { claudeLineShortcut } from './claude-line-shortcut.js';
import { classifyApiError, limitRecord, reachedLimit, resetFromText } from '../limit-errors.js';

export const TITLE_RANK = { summary: 1, ai: 2, custom: 3 } as const;

/** [key, input, output, cacheRead, cacheWrite, reasoning] of a recently counted API response. */
type UsageEntry = [string, number, number, number, number, number];

export interface ClaudeFileState {
  /** Native id of the session the file belongs to (file stem; `agent-<id>` for subagents). */
  sessionId: string;
  subagent: boolean;
  /** For subagent files: the parent session id, from the folder layout or the records. */
  parentId: string | null;
  /** Recently counted usage keys (message.id + request id), newest last, bounded. */
  usage: UsageEntry[];
  /** Recent tool_use ids → tool names, so tool results carry the tool's name. Bounded. */
  calls: [string, string][];
}

const MAX_RECENT_USAGE = 8;
const MAX_RECENT_CALLS = 128;
const MAX_SEEN_UUIDS = 200_000;

/** Text a user line carries that is slash-command or harness scaffolding, not a typed prompt. */
const SCAFFOLDING_PREFIXES = [
  '<command-name>',
  '<command-message>',
  '<command-args>',
  '<local-command-stdout>',
  '<local-command-stderr>',
  '<local-command-caveat>',
  '<bash-input>',
  '<bash-stdout>',
  '<bash-stderr>',
  '<user-prompt-submit-hook>',
  '<task-notification>',
  '<system-reminder>',
  'Caveat: The messages below were generated',
  '[Request interrupted by user',
];

export function isScaffolding(text: string): boolean {
  const c = text.charCodeAt(0);
  // Cheap first-character gate before the prefix scan.
  if (c !== 60 /* < */ && c !== 67 /* C */ && c !== 91 /* [ */) return false;
  for (const p of SCAFFOLDING_PREFIXES) if (text.startsWith(p)) return true;
  return false;
}

/** Claude records "HEAD" (or "") when the cwd is not on a branch / not a repository. */
function branch(v: string): string | null {
  return v === '' || v === 'HEAD' ? null : v;
}

/** Text of a tool_result's `content`: a string or an array of text/image blocks. */
function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const parts: string[] = [];
  for (const b of content) {
    if (!isObj(b)) continue;
    if (b.type === 'text' && typeof b.text === 'string') parts.push(b.text);
    else if (b.type === 'image') parts.push('[image]');
  }
  return parts.join('\n');
}

function toolInput(input: unknown): string {
  if (input === undefined) return '{}';
  return typeof input === 'string' ? input : JSON.stringify(input);
}

/** Where a transcript sits decides what it is: main session, nested or flat subagent. */
export function describeClaudeFile(file: string): { sessionId: string; subagent: boolean; parentId: string | null } {
  const stem = path.basename(file).replace(/\.jsonl$/, '');
  const dir = path.dirname(file);
  if (path.basename(dir) === 'subagents') {
    return { sessionId: stem, subagent: true, parentId: path.basename(path.dirname(dir)) };
  }
  if (stem.startsWith('agent-')) return { sessionId: stem, subagent: true, parentId: null };
  return { sessionId: stem, subagent: false, parentId: null };
}

/** Record types `handle` reads (keep in step with it): every other line may be skipped unparsed. */
export const RECORD_TYPES_READ: ReadonlySet<string> = new Set(['user', 'assistant', 'system', 'custom-title', 'ai-title', 'summary']);

export class ClaudeParser implements RecordParser<ClaudeFileState> {
  readonly shortcut = claudeLineShortcut(RECORD_TYPES_READ);
  /** Entry uuid → native session id that delivered it first (bounded: the most recent are kept). */
  private readonly seen = new RecentOwners<string>(MAX_SEEN_UUIDS);

  init(unit: SourceUnit): ClaudeFileState {
    const d = describeClaudeFile(unit.path);
    return { sessionId: d.sessionId, subagent: d.subagent, parentId: d.parentId, usage: [], calls: [] };
  }

  handle(rec: TailRecord, st: ClaudeFileState, sink: RecordSink): void {
    const r = rec.value;
    const type = r.type;
    if (type === 'user' || type === 'assistant' || type === 'system') {
      this.conversation(r, type, st, sink);
      return;
    }
    if (type === 'custom-title') {
      const t = str(r.customTitle);
      if (t) setTitle(this.main(st, sink), t, TITLE_RANK.custom);
    } else if (type === 'ai-title') {
      const t = str(r.aiTitle);
      if (t) setTitle(this.main(st, sink), t, TITLE_RANK.ai);
    } else if (type === 'summary') {
      const t = str(r.summary);
      if (t) setTitle(this.main(st, sink), t, TITLE_RANK.summary);
    }
    // Every other kind (attachments, api-request*, snapshots, queue ops, …) carries no conversation.
  }

  private main(st: ClaudeFileState, sink: RecordSink): SessionAgg {
    const agg = sink.session(st.sessionId);
    if (st.subagent && st.parentId && agg.parentId === null) {
      agg.parentId = st.parentId;
      agg.parentKind = 'subagent';
    }
    return agg;
  }

  private conversation(r: Obj, type: string, st: ClaudeFileState, sink: RecordSink): void {
    const recordSession = str(r.sessionId);
    let agg: SessionAgg;
    if (st.subagent) {
      // A subagent's lines carry the parent's sessionId (flat layout: the only link to it).
      if (st.parentId === null && recordSession) st.parentId = recordSession;
      agg = this.main(st, sink);
      if (agg.parentId !== null) agg.parentKind = 'subagent';
    } else if (r.isSidechain === true && typeof r.agentId === 'string') {
      // Older builds wrote subagent lines inline: give them their own subagent session.
      agg = sink.session(`agent-${r.agentId}`);
      if (agg.parentId === null) {
        agg.parentId = st.sessionId;
        agg.parentKind = 'subagent';
      }
    } else {
      if (recordSession && recordSession !== st.sessionId) {
        // History copied here by resume/fork: it belongs to the session it names.
        const self = this.main(st, sink);
        if (self.parentId === null) {
          self.parentId = recordSession;
          self.parentKind = 'fork';
        }
        return;
      }
      agg = this.main(st, sink);
    }

    const uuid = str(r.uuid);
    if (uuid) {
      const owner = this.seen.getOrAdd(uuid, agg.nativeId);
      if (owner !== undefined && owner !== agg.nativeId) {
        if (agg.parentId === null && !st.subagent) {
          agg.parentId = owner;
          agg.parentKind = 'fork';
        }
        return; // the same entry was already delivered for another session
      }
    }

    const ts = str(r.timestamp);
    noteTimestamp(agg, ts);
    const cwd = str(r.cwd);
    if (cwd) agg.cwd = cwd;
    const gb = str(r.gitBranch);
    if (gb !== null) agg.gitBranch = branch(gb);

    const message = isObj(r.message) ? r.message : null;
    if (type === 'user') this.user(r, message, agg, st, sink, ts, uuid);
    else if (type === 'assistant') this.assistant(r, message, agg, st, sink, ts, uuid);
    else this.system(r, agg, sink, ts, uuid);
  }

  private user(r: Obj, message: Obj | null, agg: SessionAgg, st: ClaudeFileState, sink: RecordSink, ts: string | null, uuid: string | null): void {
    const content = message ? message.content : undefined;
    let text: string | null = null;
    if (typeof content === 'string') {
      text = content;
    } else if (Array.isArray(content)) {
      const parts: string[] = [];
      for (const b of content) {
        if (!isObj(b)) continue;
        if (b.type === 'tool_result') {
          const callId = str(b.tool_use_id);
          sink.push(agg, 'tool', 'tool_result', resultText(b.content), callId ? lookupCall(st, callId) : null, callId, b.is_error === true, ts, uuid);
        } else if (b.type === 'text' && typeof b.text === 'string') parts.push(b.text);
        else if (b.type === 'image') parts.push('[image]');
      }
      if (parts.length > 0) text = parts.join('\n');
    }
    if (text === null || text.length === 0) return;
    const notAPrompt = r.isMeta === true || r.isCompactSummary === true || r.isVisibleInTranscriptOnly === true || isScaffolding(text);
    if (notAPrompt) {
      sink.push(agg, 'system', 'text', text, null, null, false, ts, uuid);
      return;
    }
    agg.userTurns++;
    if (agg.firstPrompt === null) agg.firstPrompt = text;
    sink.push(agg, 'user', 'text', text, null, null, false, ts, uuid);
  }

  private assistant(r: Obj, message: Obj | null, agg: SessionAgg, st: ClaudeFileState, sink: RecordSink, ts: string | null, uuid: string | null): void {
    if (!message) return;
    const model = str(message.model);
    if (model && model !== '<synthetic>') agg.model = model;
    if (isObj(message.usage)) countUsage(agg, st, message, r, sink, ts, uuid, model && model !== '<synthetic>' ? model : null);
    // An API error's text is the agent's record of a failure, never its words: kept, marked as an error.
    const apiError = (r.isApiErrorMessage === true || model === '<synthetic>') && noteApiError(agg, r, message, sink, ts, uuid);
    const content = message.content;
    if (typeof content === 'string') {
      if (content.length > 0) sink.push(agg, 'assistant', 'text', content, null, null, apiError, ts, uuid);
      return;
    }
    if (!Array.isArray(content)) return;
    for (const b of content) {
      if (!isObj(b)) continue;
      const t = b.type;
      if (t === 'text') {
        const text = str(b.text);
        if (text) sink.push(agg, 'assistant', 'text', text, null, null, apiError, ts, uuid);
      } else if (t === 'thinking') {
        const text = str(b.thinking);
        if (text) sink.push(agg, 'assistant', 'thinking', text, null, null, false, ts, uuid);
      } else if (t === 'tool_use' || t === 'server_tool_use') {
        const name = str(b.name) ?? 'unknown';
        const id = str(b.id);
        sink.addTool(agg, name);
        if (id) rememberCall(st, id, name);
        sink.push(agg, 'assistant', 'tool_call', toolInput(b.input), name, id, false, ts, uuid);
      } else if (t === 'web_search_tool_result' || t === 'web_fetch_tool_result') {
        const id = str(b.tool_use_id);
        sink.push(agg, 'tool', 'tool_result', JSON.stringify(b.content ?? null), id ? lookupCall(st, id) : null, id, false, ts, uuid);
      }
    }
  }

  private system(r: Obj, agg: SessionAgg, sink: RecordSink, ts: string | null, uuid: string | null): void {
    const subtype = r.subtype;
    const content = str(r.content);
    if (subtype === 'compact_boundary') {
      sink.push(agg, 'system', 'text', content ?? 'Conversation compacted', null, null, false, ts, uuid);
    } else if ((subtype === 'local_command' || subtype === 'informational' || subtype === 'api_error') && content) {
      sink.push(agg, 'system', 'text', content, null, null, subtype === 'api_error', ts, uuid);
    }
    // turn_duration and other bookkeeping subtypes carry nothing a reader needs.
  }
}

function rememberCall(st: ClaudeFileState, id: string, name: string): void {
  st.calls.push([id, name]);
  if (st.calls.length > MAX_RECENT_CALLS) st.calls.shift();
}

function lookupCall(st: ClaudeFileState, id: string): string | null {
  for (let i = st.calls.length - 1; i >= 0; i--) {
    const c = st.calls[i]!;
    if (c[0] === id) return c[1];
  }
  return null;
}

/**
 * Each content block of one API response is its own line repeating the response's usage: count a
 * response once per message.id + request id. Streaming builds may grow output_tokens on later
 * lines, so a repeat adds only the growth.
 */
function countUsage(agg: SessionAgg, st: ClaudeFileState, message: Obj, r: Obj, sink: RecordSink, ts: string | null, uuid: string | null, model: string | null): void {
  const u = message.usage as Obj;
  const details = u.output_tokens_details;
  const input = num(u.input_tokens);
  const output = num(u.output_tokens);
  const cacheRead = num(u.cache_read_input_tokens);
  const cacheWrite = num(u.cache_creation_input_tokens);
  const reasoning = isObj(details) ? num(details.thinking_tokens) : 0;
  const id = str(message.id) ?? '';
  const req = str(r.requestId) ?? str(r.requestRef) ?? '';
  const hasKey = id.length > 0 || req.length > 0; // the key `${id}|${req}` is not just "|"
  const prev = hasKey ? findUsage(st.usage, id, req) : undefined;
  const total = agg.usage;
  // The per-request record the index keeps (it keeps the largest counts of a repeated key).
  sink.usageEvent(agg, {
    key: hasKey ? [id, req].join('|') : `line:${uuid ?? ts ?? agg.seq}`,
    at: ts,
    model,
    input: Math.max(0, input, prev?.[1] ?? 0),
    output: Math.max(0, output, prev?.[2] ?? 0),
    cacheRead: Math.max(0, cacheRead, prev?.[3] ?? 0),
    cacheWrite: Math.max(0, cacheWrite, prev?.[4] ?? 0),
    reasoning: Math.max(0, reasoning, prev?.[5] ?? 0),
    contextWindow: null,
    limits: null,
  });
  if (prev) {
    total.input += Math.max(0, input - prev[1]);
    total.output += Math.max(0, output - prev[2]);
    total.cacheRead += Math.max(0, cacheRead - prev[3]);
    total.cacheWrite += Math.max(0, cacheWrite - prev[4]);
    total.reasoning += Math.max(0, reasoning - prev[5]);
    prev[1] = Math.max(prev[1], input);
    prev[2] = Math.max(prev[2], output);
    prev[3] = Math.max(prev[3], cacheRead);
    prev[4] = Math.max(prev[4], cacheWrite);
    prev[5] = Math.max(prev[5], reasoning);
    return;
  }
  total.input += Math.max(0, input);
  total.output += Math.max(0, output);
  total.cacheRead += Math.max(0, cacheRead);
  total.cacheWrite += Math.max(0, cacheWrite);
  total.reasoning += Math.max(0, reasoning);
  if (!hasKey) return;
  // join() builds a flat string (a template literal would leave a rope that every compare re-walks).
  st.usage.push([[id, req].join('|'), input, output, cacheRead, cacheWrite, reasoning]);
  if (st.usage.length > MAX_RECENT_USAGE) st.usage.shift();
}

/**
 * Claude Code records a failed request as a synthetic assistant message. 2.1.x marks it
 * (`isApiErrorMessage`, `error: "rate_limit"`, `apiErrorStatus: 429`, `apiErrorType`); older builds
 * only word it: "Claude AI usage limit reached|<reset epoch seconds>", "You've hit your limit ·
 * resets 7pm (Europe/Berlin)", "5-hour limit reached ∙ resets 3pm". Only limits are limit hits; an
 * overloaded server or another API error is not. Returns whether the message is an API error.
 */
export const CLAUDE_LIMIT_TEXT = /usage limit reached|hit your (?:usage )?limit|limit reached\s*[∙·•]\s*resets/i;

function noteApiError(agg: SessionAgg, r: Obj, message: Obj, sink: RecordSink, ts: string | null, uuid: string | null): boolean {
  const content = message.content;
  const text = typeof content === 'string' ? content : Array.isArray(content) ? content.map((b) => (isObj(b) && typeof b.text === 'string' ? b.text : '')).join('\n') : '';
  const marked = r.isApiErrorMessage === true;
  // Unmarked (older builds): only the usage-limit wording says it is an error at all.
  if (!marked && !CLAUDE_LIMIT_TEXT.test(text)) return false;
  const status = typeof r.apiErrorStatus === 'number' ? r.apiErrorStatus : null;
  const verdict = classifyApiError({ status, type: str(r.apiErrorType), code: str(r.error), text });
  if (verdict.class === 'limit') {
    sink.usageEvent(agg, limitRecord(`limit:${uuid ?? ts ?? agg.seq}`, ts, reachedLimit(verdict.kind, text, resetFromText(text))));
  }
  return true;
}

/** The entry keyed `${id}|${req}`, compared in place (no key string per line). */
function findUsage(usage: UsageEntry[], id: string, req: string): UsageEntry | undefined {
  for (const e of usage) if (isUsageKey(e[0], id, req)) return e;
  return undefined;
}

/**
 * `key === `${id}|${req}``, character by character from the end: keys of one file tend to share
 * the message id and differ in the request id's random tail, so a mismatch shows at once.
 */
function isUsageKey(key: unknown, id: string, req: string): boolean {
  if (typeof key !== 'string' || key.length !== id.length + 1 + req.length || key.charCodeAt(id.length) !== 124 /* | */) return false;
  const at = id.length + 1;
  for (let i = req.length - 1; i >= 0; i--) if (key.charCodeAt(at + i) !== req.charCodeAt(i)) return false;
  for (let i = id.length - 1; i >= 0; i--) if (key.charCodeAt(i) !== id.charCodeAt(i)) return false;
  return true;
}
