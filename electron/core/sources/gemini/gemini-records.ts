/**
 * Gemini CLI chat records → normalized messages (reference §6). A chat file is a header line
 * (`sessionId`, `projectHash`, `kind`…), message records (`user` | `gemini` | `info` | …) and
 * `$set` metadata lines. What the reader keeps:
 * - every top-level message record, once per `id`: the CLI writes a `gemini` record again with its
 *   `toolCalls` (and tokens) under the same id, so a rewrite only adds what is new in it;
 * - a tool result once: it sits in `toolCalls[].result` and again in a `user` record of
 *   `functionResponse` parts;
 * - never a `$set.messages` list: a `--resume` replay or a `/compress` rewrite of turns the file
 *   already holds above (so the whole transcript stays, and replays are not new turns);
 * - `$set.summary` as the title, `$rewindTo` drops the rewound prompts from the turn count (their
 *   text stays searchable).
 * A file without message records (the stub a later-minute `--resume` leaves) yields no session.
 */
import path from 'node:path';
import type { TailRecord } from '../jsonl/jsonl-tail.js';
import { noteTimestamp, setTitle, type RecordParser, type RecordSink, type SessionAgg } from '../jsonl/jsonl-session-reader.js';
import type { SourceUnit } from '../types.js';
import { classifyApiError, limitRecord, reachedLimit, resetFromText } from '../limit-errors.js';
import { geminiLineShortcut } from './gemini-line-shortcut.js';
import type { ProjectRoots } from './project-roots.js';

/** Record ids remembered for upserts: a rewrite follows its record within a few lines. */
const RECENT_RECORDS = 64;
const RECENT_RESULTS = 256;
/** Prompt ids kept for `$rewindTo` (older rewinds than this many prompts back are not undone). */
const MAX_PROMPT_IDS = 512;
const TITLE_RANK_SUMMARY = 1;

/** What was already delivered for one record id. */
interface SeenRecord {
  id: string;
  text: boolean;
  thoughts: boolean;
  tokens: boolean;
  calls: string[];
}

export interface GeminiFileState {
  /** `<gemini dir>/tmp/<slug>`: where the cwd is looked up. */
  projectDir: string;
  /** Subagent files live in `chats/<parent sessionId>/`. */
  parentId: string | null;
  /** The file name without extension: names the session when its header line is unreadable. */
  fileId: string;
  sessionId: string | null;
  projectHash: string | null;
  /** First workspace directory of a subagent header (a cwd of last resort). */
  directory: string | null;
  /** The header's start time, applied once the session has a message. */
  startTime: string | null;
  /** A title met before the session's first message. */
  pendingTitle: string | null;
  /** Whether a message record was seen for `sessionId` in this file (stubs have none). */
  started: boolean;
  recent: SeenRecord[];
  results: string[];
  prompts: string[];
}

type Obj = Record<string, unknown>;

/** Where a tool result was found: a `user` record of responses, or the call's own `result`. */
interface ResultSource {
  ts: string | null;
  nativeId: string;
  /** The call's status says it failed (the response may not). */
  failed: boolean;
  name: string | null;
  callId: string | null;
}

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/** Where the chats of `file` belong: its project dir and, for a subagent, the parent session id. */
export function chatLocation(file: string): { projectDir: string; parentId: string | null } {
  const dir = path.dirname(file);
  if (path.basename(dir) === 'chats') return { projectDir: path.dirname(dir), parentId: null };
  const chats = path.dirname(dir);
  if (path.basename(chats) === 'chats') return { projectDir: path.dirname(chats), parentId: path.basename(dir) };
  return { projectDir: dir, parentId: null };
}

/** Text of a Part list (or a plain string), joined as the CLI joins it. */
function partsText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  let out = '';
  for (const p of content) if (isObj(p) && typeof p.text === 'string' && p.thought !== true) out += p.text;
  return out;
}

function functionResponses(content: unknown): Obj[] {
  if (!Array.isArray(content)) return [];
  const out: Obj[] = [];
  for (const p of content) if (isObj(p) && isObj(p.functionResponse)) out.push(p.functionResponse);
  return out;
}

function responseText(fr: Obj): { text: string; isError: boolean } {
  const r = fr.response;
  if (!isObj(r)) return { text: typeof r === 'string' ? r : '', isError: false };
  const pick = r.error !== undefined ? r.error : r.output !== undefined ? r.output : r;
  return { text: typeof pick === 'string' ? pick : JSON.stringify(pick), isError: r.error !== undefined };
}

/**
 * User text the CLI itself does not treat as a prompt (its `isIgnoredUserContent`: slash commands,
 * `?` help, injected context) plus `/compress`'s snapshot, should one ever be a top-level record.
 */
function isScaffolding(text: string): boolean {
  const t = text.trimStart();
  return (
    t.length === 0 ||
    t.startsWith('/') ||
    t.startsWith('?') ||
    t.startsWith('<session_context>') ||
    t.startsWith('<hook_context>') ||
    t.startsWith('<state_snapshot>') ||
    t.startsWith('<scratchpad>')
  );
}

const HOOK_CONTEXT = /^\s*(<hook_context>[\s\S]*?<\/hook_context>)\s*/;

/** A leading `<hook_context>…</hook_context>` block and the text after it ([null, text] without one). */
function splitHookContext(text: string): [string | null, string] {
  const match = HOOK_CONTEXT.exec(text);
  return match ? [match[1]!, text.slice(match[0].length)] : [null, text];
}

function thoughtsText(thoughts: unknown): string {
  if (!Array.isArray(thoughts)) return '';
  const parts: string[] = [];
  for (const t of thoughts) {
    if (!isObj(t)) continue;
    const subject = str(t.subject)?.trim();
    const description = str(t.description)?.trim();
    const text = subject && description ? `**${subject}** ${description}` : (subject ?? description ?? '');
    if (text) parts.push(text);
  }
  return parts.join('\n\n');
}

function pushBounded<T>(list: T[], item: T, max: number): void {
  list.push(item);
  if (list.length > max) list.splice(0, list.length - max);
}

export class GeminiParser implements RecordParser<GeminiFileState> {
  readonly shortcut = geminiLineShortcut;

  constructor(private readonly roots: ProjectRoots) {}

  init(unit: SourceUnit): GeminiFileState {
    const { projectDir, parentId } = chatLocation(unit.path);
    return {
      projectDir,
      parentId,
      fileId: path.basename(unit.path).replace(/\.jsonl?$/, ''),
      sessionId: null,
      projectHash: null,
      directory: null,
      startTime: null,
      pendingTitle: null,
      started: false,
      recent: [],
      results: [],
      prompts: [],
    };
  }

  finish(agg: SessionAgg, st: GeminiFileState): void {
    agg.cwd = this.roots.lookup(st.projectDir, st.projectHash) ?? st.directory ?? agg.cwd;
    agg.parentId = st.parentId;
    if (st.parentId !== null) agg.parentKind = 'subagent';
  }

  handle(rec: TailRecord, st: GeminiFileState, sink: RecordSink): void {
    const r = rec.value;
    if (typeof r.id === 'string') {
      this.message(r, st, sink);
    } else if (isObj(r.$set)) {
      this.metadata(r.$set, st, sink);
    } else if (typeof r.$rewindTo === 'string') {
      this.rewind(r.$rewindTo, st, sink);
    } else if (typeof r.sessionId === 'string') {
      this.header(r, st, sink);
    }
    // Anything else is a record kind a newer CLI added: ignored, never fatal.
  }

  /**
   * The session's aggregate, created by its first message (so a stub file yields nothing). Without
   * a readable header (its line was reported as damaged) the session is named after its file, so
   * its messages are not lost; a subagent file's name is its session id anyway.
   */
  private agg(st: GeminiFileState, sink: RecordSink): SessionAgg {
    st.sessionId ??= st.fileId;
    const agg = sink.session(st.sessionId);
    if (!st.started) {
      st.started = true;
      noteTimestamp(agg, st.startTime);
      if (st.pendingTitle) setTitle(agg, st.pendingTitle, TITLE_RANK_SUMMARY);
      st.pendingTitle = null;
    }
    return agg;
  }

  private switchSession(st: GeminiFileState, id: string): void {
    if (id === st.sessionId) return;
    st.sessionId = id;
    st.started = false;
    st.recent = [];
    st.results = [];
    st.prompts = [];
  }

  private header(r: Obj, st: GeminiFileState, sink: RecordSink): void {
    this.switchSession(st, r.sessionId as string);
    st.projectHash = str(r.projectHash) ?? st.projectHash;
    const dirs = r.directories;
    if (Array.isArray(dirs) && typeof dirs[0] === 'string') st.directory = dirs[0];
    if (!st.started) st.startTime = str(r.startTime) ?? st.startTime;
    const summary = str(r.summary);
    if (summary) this.title(summary, st, sink);
    // A legacy whole-JSON session (or a header carrying its messages): the list is the transcript.
    if (Array.isArray(r.messages)) for (const m of r.messages) if (isObj(m) && typeof m.id === 'string') this.message(m, st, sink);
  }

  private metadata(set: Obj, st: GeminiFileState, sink: RecordSink): void {
    const id = str(set.sessionId);
    if (id) this.switchSession(st, id);
    const dirs = set.directories;
    if (Array.isArray(dirs) && typeof dirs[0] === 'string') st.directory = dirs[0];
    const summary = str(set.summary);
    if (summary) this.title(summary, st, sink);
    const updated = str(set.lastUpdated);
    if (updated && st.started) noteTimestamp(this.agg(st, sink), updated);
    // `messages`: a replay or a compression of records above; never new turns.
  }

  private title(summary: string, st: GeminiFileState, sink: RecordSink): void {
    if (st.started) setTitle(this.agg(st, sink), summary, TITLE_RANK_SUMMARY);
    else st.pendingTitle = summary;
  }

  private rewind(id: string, st: GeminiFileState, sink: RecordSink): void {
    if (!st.started) return;
    const agg = this.agg(st, sink);
    sink.push(agg, 'system', 'text', 'Conversation rewound', null, null, false, null, null);
    const at = st.prompts.indexOf(id);
    if (at < 0) return;
    agg.userTurns = Math.max(0, agg.userTurns - (st.prompts.length - at));
    st.prompts.length = at;
    if (at === 0) agg.firstPrompt = null;
  }

  private seen(st: GeminiFileState, id: string): { rec: SeenRecord; fresh: boolean } {
    const found = st.recent.find((s) => s.id === id);
    if (found) return { rec: found, fresh: false };
    const rec: SeenRecord = { id, text: false, thoughts: false, tokens: false, calls: [] };
    pushBounded(st.recent, rec, RECENT_RECORDS);
    return { rec, fresh: true };
  }

  private message(r: Obj, st: GeminiFileState, sink: RecordSink): void {
    const agg = this.agg(st, sink);
    const id = r.id as string;
    const ts = str(r.timestamp);
    noteTimestamp(agg, ts);
    const { rec, fresh } = this.seen(st, id);
    switch (r.type) {
      case 'user':
        this.user(r, agg, st, sink, rec, fresh, ts);
        return;
      case 'gemini':
        this.gemini(r, agg, st, sink, rec, ts);
        return;
      default: {
        // info / error / warning: CLI notices (checkpoint saved, /compress, errors).
        if (!fresh) return;
        const text = partsText(r.content);
        if (text.trim()) sink.push(agg, 'system', 'text', text, null, null, r.type === 'error', ts, id);
        // The interactive CLI (0.61) records a refused request as an `error` notice ("[API Error: You
        // have exhausted your daily quota on this model.]…"); headless `-p` records nothing of it.
        if (r.type === 'error' && text.startsWith('[API Error')) {
          const verdict = classifyApiError({ text });
          if (verdict.class === 'limit') sink.usageEvent(agg, limitRecord(`limit:${id}`, ts, reachedLimit(verdict.kind, text, resetFromText(text))));
        }
      }
    }
  }

  private user(r: Obj, agg: SessionAgg, st: GeminiFileState, sink: RecordSink, rec: SeenRecord, fresh: boolean, ts: string | null): void {
    for (const fr of functionResponses(r.content)) this.result(fr, agg, st, sink, { ts, nativeId: rec.id, failed: false, name: null, callId: null });
    if (!fresh || rec.text) return;
    rec.text = true;
    const text = partsText(r.content);
    if (!text) return;
    const [hookContext, typed] = splitHookContext(text);
    if (hookContext !== null && typed) {
      // `gemini -p` with a SessionStart hook: the hook's context is prepended to the typed prompt in
      // one part; the context is not the user's, the rest is their prompt.
      sink.push(agg, 'system', 'text', hookContext, null, null, false, ts, rec.id);
    } else if (isScaffolding(text)) {
      sink.push(agg, 'system', 'text', text, null, null, false, ts, rec.id);
      return;
    }
    sink.push(agg, 'user', 'text', typed, null, null, false, ts, rec.id);
    agg.userTurns++;
    agg.firstPrompt ??= typed;
    pushBounded(st.prompts, rec.id, MAX_PROMPT_IDS);
  }

  private gemini(r: Obj, agg: SessionAgg, st: GeminiFileState, sink: RecordSink, rec: SeenRecord, ts: string | null): void {
    const id = rec.id;
    const model = str(r.model);
    if (model) agg.model = model;
    if (!rec.thoughts) {
      const thinking = thoughtsText(r.thoughts);
      if (thinking) {
        rec.thoughts = true;
        sink.push(agg, 'assistant', 'thinking', thinking, null, null, false, ts, id);
      }
    }
    if (!rec.text) {
      const text = partsText(r.content);
      if (text.trim()) {
        rec.text = true;
        sink.push(agg, 'assistant', 'text', text, null, null, false, ts, id);
      }
    }
    if (!rec.tokens && isObj(r.tokens)) {
      rec.tokens = true;
      const t = r.tokens;
      const cached = num(t.cached);
      // Gemini's prompt count includes the cached part; Baton's `input` is the uncached rest.
      agg.usage.input += Math.max(0, num(t.input) - cached) + num(t.tool);
      agg.usage.output += num(t.output);
      agg.usage.cacheRead += cached;
      agg.usage.reasoning += num(t.thoughts);
    }
    if (!Array.isArray(r.toolCalls)) return;
    for (const tc of r.toolCalls) {
      if (!isObj(tc)) continue;
      const callId = str(tc.id);
      const name = str(tc.name) ?? 'unknown';
      if (callId === null || !rec.calls.includes(callId)) {
        if (callId) rec.calls.push(callId);
        sink.addTool(agg, name);
        sink.push(agg, 'assistant', 'tool_call', JSON.stringify(tc.args ?? {}), name, callId, false, str(tc.timestamp) ?? ts, id);
      }
      const failed = tc.status === 'error' || tc.status === 'cancelled';
      for (const fr of functionResponses(tc.result)) this.result(fr, agg, st, sink, { ts: str(tc.timestamp) ?? ts, nativeId: id, failed, name, callId });
    }
  }

  /** Delivers a tool result unless this call's result already was (it is stored twice). */
  private result(fr: Obj, agg: SessionAgg, st: GeminiFileState, sink: RecordSink, from: ResultSource): void {
    const callId = str(fr.id) ?? from.callId;
    if (callId !== null) {
      if (st.results.includes(callId)) return;
      pushBounded(st.results, callId, RECENT_RESULTS);
    }
    const { text, isError } = responseText(fr);
    sink.push(agg, 'tool', 'tool_result', text, str(fr.name) ?? from.name, callId, from.failed || isError, from.ts, from.nativeId);
  }
}
