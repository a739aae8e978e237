/**
 * Qwen Code chat records → normalized messages and session aggregates.
 *
 * The store is Claude-like (one JSONL file per session, `uuid`/`parentUuid`, `cwd`, `gitBranch` on
 * every line) but the messages are Gemini Contents (`parts` with `text`/`thought`/`functionCall`/
 * `functionResponse`). What the user typed is told apart by `provenance: "real_user"` (Qwen Code
 * 0.24.4 source, `chatRecordingService`): notifications, cron prompts and goal-runtime messages are
 * user-role lines of another provenance. Subagent transcripts carry no provenance at all; Qwen's own
 * reader then treats a plain `user` line as typed, and so do we (it is the subagent's task).
 */
import path from 'node:path';
import type { TailRecord } from '../jsonl/jsonl-tail.js';
import { noteTimestamp, setTitle, type RecordParser, type RecordSink, type SessionAgg } from '../jsonl/jsonl-session-reader.js';
import type { SourceUnit } from '../types.js';
import { classifyApiError, limitRecord, reachedLimit, resetFromText } from '../limit-errors.js';
import { isObj, num, str, type Obj } from '../jsonl/record-values.js';
import { RecentOwners } from '../jsonl/recent-owners.js';
import { qwenLineShortcut } from './qwen-line-shortcut.js';

/** `custom_title` records: a `/rename` (manual, the default) beats a generated title. */
export const TITLE_RANK = { auto: 1, manual: 2 } as const;

export interface QwenFileState {
  /** Native id of the session the file holds: the file stem (`agent-<type>-<call id>` for subagents). */
  sessionId: string;
  /** For subagent files: the parent session id, from `subagents/<parent id>/`. */
  parentId: string | null;
}

/** Hook context Qwen appends to a prompt's parts (UserPromptSubmit hooks); not typed by the user. */
const HOOK_CONTEXT_OPEN = '<qwen:user-prompt-submit-context>';

/** `system` subtypes that carry nothing a transcript reader needs (bookkeeping, telemetry, snapshots). */
export const SILENT_SYSTEM_SUBTYPES: ReadonlySet<string> = new Set(['ui_telemetry', 'attribution_snapshot', 'file_history_snapshot']);

function partsOf(message: unknown): Obj[] {
  if (!isObj(message) || !Array.isArray(message.parts)) return [];
  return message.parts.filter(isObj);
}

/** Visible text of user-side parts: text (minus hook context), images and files as placeholders. */
function userText(parts: Obj[]): string {
  const out: string[] = [];
  for (const p of parts) {
    if (typeof p.text === 'string') {
      if (p.thought !== true && !p.text.trimStart().startsWith(HOOK_CONTEXT_OPEN)) out.push(p.text);
    } else if (isObj(p.inlineData)) out.push('[image]');
    else if (isObj(p.fileData)) out.push('[file]');
  }
  return out.join('\n');
}

/** What a tool answered: its `output`, else its `error`, else the whole response. */
function responseText(response: unknown): string {
  if (!isObj(response)) return typeof response === 'string' ? response : '';
  if (typeof response.output === 'string') return response.output;
  if (typeof response.error === 'string') return response.error;
  return JSON.stringify(response);
}

/** Claude and Qwen record "HEAD" when the cwd is not on a branch. */
function branch(v: unknown): string | null {
  return typeof v === 'string' && v !== '' && v !== 'HEAD' ? v : null;
}

/** Where a transcript sits decides what it is: `chats/<id>.jsonl` or `subagents/<parent id>/<agent>.jsonl`. */
export function describeQwenFile(file: string): QwenFileState {
  const sessionId = path.basename(file).replace(/\.jsonl$/, '');
  const dir = path.dirname(file);
  if (path.basename(path.dirname(dir)) === 'subagents') return { sessionId, parentId: path.basename(dir) };
  return { sessionId, parentId: null };
}

const MAX_SEEN_UUIDS = 200_000;

export class QwenParser implements RecordParser<QwenFileState> {
  readonly shortcut = qwenLineShortcut(SILENT_SYSTEM_SUBTYPES);
  /**
   * Record uuid → native session id that delivered it first (bounded: the most recent are kept).
   * `--resume <id> --fork-session` copies the source's records, same uuids, into the new file.
   */
  private readonly seen = new RecentOwners<string>(MAX_SEEN_UUIDS);

  init(unit: SourceUnit): QwenFileState {
    return describeQwenFile(unit.path);
  }

  handle(rec: TailRecord, st: QwenFileState, sink: RecordSink): void {
    const r = rec.value;
    const agg = sink.session(st.sessionId);
    if (st.parentId !== null && agg.parentId === null) {
      agg.parentId = st.parentId;
      agg.parentKind = 'subagent';
    }
    const uuid = str(r.uuid);
    if (uuid) {
      const owner = this.seen.getOrAdd(uuid, st.sessionId);
      if (owner !== undefined && owner !== st.sessionId) {
        // History a fork copied from its source (read first: units go oldest first) belongs to the source.
        if (agg.parentId === null) {
          agg.parentId = owner;
          agg.parentKind = 'fork';
        }
        return;
      }
    }
    const ts = str(r.timestamp);
    noteTimestamp(agg, ts);
    switch (r.type) {
      case 'user':
        this.place(r, agg);
        this.user(r, agg, sink, ts, uuid);
        return;
      case 'assistant':
        this.place(r, agg);
        this.assistant(r, agg, sink, ts, uuid);
        return;
      case 'tool_result':
        this.place(r, agg);
        this.toolResult(r, agg, sink, ts, uuid);
        return;
      case 'system':
        this.system(r, agg, sink, ts, uuid);
        return;
      default:
      // Record kinds added later carry no conversation we know how to read.
    }
  }

  /** cwd and branch as of the latest conversation line (the branch may change between resumes). */
  private place(r: Obj, agg: SessionAgg): void {
    const cwd = str(r.cwd);
    if (cwd) agg.cwd = cwd;
    agg.gitBranch = branch(r.gitBranch);
  }

  private user(r: Obj, agg: SessionAgg, sink: RecordSink, ts: string | null, uuid: string | null): void {
    const subtype = str(r.subtype);
    const payload = isObj(r.systemPayload) ? r.systemPayload : null;
    // displayText is what the user saw and typed; the parts may add expanded @files or hook context.
    const display = payload ? str(payload.displayText) : null;
    const text = display ?? userText(partsOf(r.message));
    if (text.length === 0) return;
    const provenance = str(r.provenance) ?? (subtype === null || subtype === 'mid_turn_user_message' ? 'real_user' : null);
    const typed = provenance === 'real_user' && (subtype === null || subtype === 'mid_turn_user_message');
    if (!typed) {
      // Notifications, cron prompts, goal-runtime nudges and spoken (realtime) turns.
      sink.push(agg, subtype === 'realtime_message' ? 'user' : 'system', 'text', text, null, null, false, ts, uuid);
      return;
    }
    agg.userTurns++;
    if (agg.firstPrompt === null) agg.firstPrompt = text;
    sink.push(agg, 'user', 'text', text, null, null, false, ts, uuid);
  }

  private assistant(r: Obj, agg: SessionAgg, sink: RecordSink, ts: string | null, uuid: string | null): void {
    const model = str(r.model);
    if (model) agg.model = model;
    if (isObj(r.usageMetadata)) countUsage(agg, r.usageMetadata);
    for (const p of partsOf(r.message)) {
      if (typeof p.text === 'string') {
        if (p.text.length > 0) sink.push(agg, 'assistant', p.thought === true ? 'thinking' : 'text', p.text, null, null, false, ts, uuid);
      } else if (isObj(p.functionCall)) {
        const call = p.functionCall;
        const name = str(call.name) ?? 'unknown';
        sink.addTool(agg, name);
        sink.push(agg, 'assistant', 'tool_call', JSON.stringify(call.args ?? {}), name, str(call.id), false, ts, uuid);
      }
    }
  }

  private toolResult(r: Obj, agg: SessionAgg, sink: RecordSink, ts: string | null, uuid: string | null): void {
    const result = isObj(r.toolCallResult) ? r.toolCallResult : null;
    const failed = result !== null && (result.status === 'error' || result.executionStatus === 'error');
    const extra: string[] = [];
    let delivered = false;
    for (const p of partsOf(r.message)) {
      if (isObj(p.functionResponse)) {
        const fr = p.functionResponse;
        const response = fr.response;
        const isError = failed || (isObj(response) && response.error !== undefined && response.output === undefined);
        sink.push(agg, 'tool', 'tool_result', responseText(response), str(fr.name), str(fr.id) ?? (result ? str(result.callId) : null), isError, ts, uuid);
        delivered = true;
      } else if (isObj(p.inlineData)) extra.push('[image]');
      else if (typeof p.text === 'string' && p.text.length > 0) extra.push(p.text);
    }
    // Media and text parts that came back beside the response (read_file on an image, a PDF…).
    if (extra.length > 0) sink.push(agg, 'tool', 'tool_result', extra.join('\n'), null, result ? str(result.callId) : null, failed, ts, uuid);
    else if (!delivered && result) sink.push(agg, 'tool', 'tool_result', '', null, str(result.callId), failed, ts, uuid);
  }

  private system(r: Obj, agg: SessionAgg, sink: RecordSink, ts: string | null, uuid: string | null): void {
    const payload = isObj(r.systemPayload) ? r.systemPayload : {};
    switch (r.subtype) {
      case 'ui_telemetry': {
        // Qwen Code records a refused request only as telemetry: `qwen-code.api_error` with
        // `status_code: 429`, `error_type: "RateLimitError"` (each retry its own line).
        const ev = isObj(payload.uiEvent) ? payload.uiEvent : null;
        if (!ev || ev['event.name'] !== 'qwen-code.api_error') return;
        const text = str(ev.error_message) ?? '';
        const status = typeof ev.status_code === 'number' ? ev.status_code : null;
        // error_type is the SDK's exception class (RateLimitError for any 429): the provider's words say which limit.
        const verdict = classifyApiError({ status, text });
        if (verdict.class === 'limit') sink.usageEvent(agg, limitRecord(`limit:${uuid ?? ts ?? agg.seq}`, ts, reachedLimit(verdict.kind, text, resetFromText(text))));
        return;
      }
      case 'chat_compression': {
        // `/compress`: the summary the model continues from; the lines above it stay in the file.
        const history = Array.isArray(payload.compressedHistory) ? payload.compressedHistory : [];
        const summary = history.length > 0 ? userText(partsOf(history[0])) : '';
        sink.push(agg, 'system', 'text', summary || 'Conversation compressed', null, null, false, ts, uuid);
        return;
      }
      case 'slash_command': {
        const command = str(payload.rawCommand);
        if (command && payload.phase === 'invocation') sink.push(agg, 'system', 'text', command, null, null, false, ts, uuid);
        return;
      }
      case 'custom_title': {
        const title = str(payload.customTitle);
        if (title) setTitle(agg, title, payload.titleSource === 'auto' ? TITLE_RANK.auto : TITLE_RANK.manual);
        return;
      }
      case 'parent_session': {
        const parent = str(payload.parentSessionId);
        if (parent && agg.parentId === null) {
          agg.parentId = parent;
          agg.parentKind = 'fork';
        }
        return;
      }
      case 'rewind':
        sink.push(agg, 'system', 'text', 'Conversation rewound to an earlier turn', null, null, false, ts, uuid);
        return;
      case 'agent_launch_prompt': {
        const text = str(payload.displayText);
        if (text) sink.push(agg, 'system', 'text', text, null, null, false, ts, uuid);
        return;
      }
      default:
      // Telemetry, snapshots, session metadata: nothing for the transcript.
    }
  }
}

/**
 * One assistant line is one API response, in Gemini's counts: the prompt count includes the cached
 * part (input = prompt − cached, as for Codex). Output includes the reasoning, as OpenAI counts it:
 * through Chat Completions (Qwen's usual wire) the candidates already hold the thoughts; when the
 * total shows them counted apart (Gemini's own API), they are added.
 */
function countUsage(agg: SessionAgg, u: Obj): void {
  const prompt = num(u.promptTokenCount);
  const candidates = num(u.candidatesTokenCount);
  const thoughts = num(u.thoughtsTokenCount);
  const cached = num(u.cachedContentTokenCount);
  const apart = thoughts > 0 && num(u.totalTokenCount) >= prompt + candidates + thoughts;
  agg.usage.input += Math.max(0, prompt - cached);
  agg.usage.output += Math.max(0, candidates + (apart ? thoughts : 0));
  agg.usage.cacheRead += Math.max(0, cached);
  agg.usage.reasoning += Math.max(0, thoughts);
}
