/**
 * Factory Droid session lines → normalized messages and session aggregates.
 *
 * `session_start` names the session, its cwd, its title and, for a `Task` subagent, the calling
 * session; `message` lines hold Anthropic-style blocks. The first user message of every run is an
 * injected context message (`context-…` id, `visibility: "llm_only"`): environment, not a prompt,
 * so it is skipped. A `/compress` continuation starts with `compaction_state` (its summary is kept
 * as system text). Model and token totals live in the rewritten `<id>.settings.json` beside the
 * file (see droid-adapter.ts), applied in `finish`.
 */
import type { TokenUsage } from '../../../../shared/model.js';
import type { TailRecord } from '../jsonl/jsonl-tail.js';
import { noteTimestamp, setTitle, type RecordParser, type RecordSink, type SessionAgg } from '../jsonl/jsonl-session-reader.js';
import type { SourceUnit } from '../types.js';
import { isObj, str, num, type Obj } from '../jsonl/record-values.js';


/** What a session takes from its settings document. */
export interface DroidSettings {
  model: string | null;
  usage: TokenUsage | null;
}

export interface DroidFileState {
  /** session_start id, else the file name's. */
  sessionId: string;
  /** The transcript path: the key of its settings document. */
  file: string;
  /** Recent tool_use id → tool name. */
  calls: [string, string][];
}

const MAX_RECENT_CALLS = 128;
const TITLE_RANK = 1;




function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((b) => (isObj(b) && typeof b.text === 'string' ? b.text : isObj(b) && b.type === 'image' ? '[image]' : '')).filter(Boolean).join('\n');
}

/** `<uuid>.settings.json` → the fields Baton uses (null when it is not a settings object). */
export function parseDroidSettings(doc: unknown): DroidSettings | null {
  if (!isObj(doc)) return null;
  const u = doc.tokenUsage;
  const usage: TokenUsage | null = isObj(u)
    ? { input: num(u.inputTokens), output: num(u.outputTokens), cacheRead: num(u.cacheReadTokens), cacheWrite: num(u.cacheCreationTokens), reasoning: num(u.thinkingTokens) }
    : null;
  // The latest call's prompt side: what the context holds now (the totals only say what was spent).
  const last = doc.lastCallTokenUsage;
  if (usage && isObj(last)) usage.lastRequest = { input: num(last.inputTokens), cacheRead: num(last.cacheReadTokens), cacheWrite: num(last.cacheCreationTokens) };
  return { model: str(doc.model), usage };
}

export class DroidParser implements RecordParser<DroidFileState> {
  constructor(private readonly settings: (file: string) => DroidSettings | null) {}

  init(unit: SourceUnit): DroidFileState {
    const base = unit.path.slice(unit.path.replace(/\\/g, '/').lastIndexOf('/') + 1).replace(/\.jsonl$/, '');
    return { sessionId: base, file: unit.path, calls: [] };
  }

  finish(agg: SessionAgg, st: DroidFileState): void {
    const s = this.settings(st.file);
    if (!s) return;
    if (s.model) agg.model = s.model;
    if (s.usage) agg.usage = { ...s.usage };
  }

  handle(rec: TailRecord, st: DroidFileState, sink: RecordSink): void {
    const r = rec.value;
    switch (r.type) {
      case 'session_start':
        this.start(r, st, sink);
        return;
      case 'message':
        if (isObj(r.message)) this.message(r, r.message, st, sink);
        return;
      case 'compaction_state': {
        const agg = sink.session(st.sessionId);
        noteTimestamp(agg, str(r.timestamp));
        const summary = str(r.summaryText);
        if (summary) sink.push(agg, 'system', 'text', summary, null, null, false, str(r.timestamp), str(r.id));
        return;
      }
      default:
      // agent_turn_outcome and lines of newer versions: nothing a session lists.
    }
  }

  private start(r: Obj, st: DroidFileState, sink: RecordSink): void {
    const id = str(r.id);
    if (id) st.sessionId = id;
    const agg = sink.session(st.sessionId);
    const cwd = str(r.cwd);
    if (cwd) agg.cwd = cwd;
    const title = str(r.title);
    if (title) setTitle(agg, title, TITLE_RANK);
    const caller = str(r.callingSessionId);
    if (caller) {
      agg.parentId = caller;
      agg.parentKind = 'subagent';
    }
  }

  private message(r: Obj, m: Obj, st: DroidFileState, sink: RecordSink): void {
    const agg = sink.session(st.sessionId);
    const ts = str(r.timestamp);
    const id = str(r.id);
    noteTimestamp(agg, ts);
    const content = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : Array.isArray(m.content) ? m.content : [];
    if (m.role === 'user') {
      if (m.visibility === 'llm_only' || id?.startsWith('context-')) return; // injected environment
      const texts: string[] = [];
      for (const b of content) {
        if (!isObj(b)) continue;
        if (b.type === 'tool_result') {
          const callId = str(b.tool_use_id);
          sink.push(agg, 'tool', 'tool_result', resultText(b.content), callId ? lookupCall(st, callId) : null, callId, b.is_error === true, ts, id);
        } else if (b.type === 'text' && typeof b.text === 'string') texts.push(b.text);
      }
      const text = texts.join('\n');
      if (text.length === 0) return;
      agg.userTurns++;
      agg.firstPrompt ??= text;
      sink.push(agg, 'user', 'text', text, null, null, false, ts, id);
      return;
    }
    if (m.role !== 'assistant') return;
    for (const b of content) {
      if (!isObj(b)) continue;
      if (b.type === 'text') {
        const text = str(b.text);
        if (text) sink.push(agg, 'assistant', 'text', text, null, null, false, ts, id);
      } else if (b.type === 'thinking') {
        const text = str(b.thinking);
        if (text) sink.push(agg, 'assistant', 'thinking', text, null, null, false, ts, id);
      } else if (b.type === 'tool_use') {
        const name = str(b.name) ?? 'unknown';
        const callId = str(b.id);
        sink.addTool(agg, name);
        if (callId) rememberCall(st, callId, name);
        sink.push(agg, 'assistant', 'tool_call', JSON.stringify(b.input ?? {}), name, callId, false, ts, id);
      }
    }
  }
}

function rememberCall(st: DroidFileState, id: string, name: string): void {
  st.calls.push([id, name]);
  if (st.calls.length > MAX_RECENT_CALLS) st.calls.shift();
}

function lookupCall(st: DroidFileState, id: string): string | null {
  for (let i = st.calls.length - 1; i >= 0; i--) if (st.calls[i]![0] === id) return st.calls[i]![1];
  return null;
}
