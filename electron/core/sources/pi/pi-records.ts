/**
 * pi session lines → normalized messages and session aggregates (storage format: reference §8).
 *
 * Line 1 is the header (session id, cwd, `parentSession` for a fork); every other line is a tree
 * entry. Messages are delivered for every entry in file order, abandoned branches included (search
 * finds them); `finish` then derives prompts, first prompt, tools and the other-branch seq ranges
 * from the current path (see pi-tree.ts). Usage and pi's own USD cost are summed over all assistant
 * responses of the file except those a fork copied from its source (counted in the source).
 */
import path from 'node:path';
import type { TailRecord } from '../jsonl/jsonl-tail.js';
import { noteTimestamp, type RecordParser, type RecordSink, type SessionAgg } from '../jsonl/jsonl-session-reader.js';
import type { SourceUnit } from '../types.js';
import { emptyTree, TreeIndex, type PiTree } from './pi-tree.js';
import { classifyApiError, limitRecord, reachedLimit } from '../limit-errors.js';
import { isObj, str, num, type Obj } from '../jsonl/record-values.js';


export interface PiFileState {
  /** Header id, else the uuid in the file name. */
  sessionId: string;
  /** Set for a `--fork` file: entries stamped before this are copies of the source's. */
  forkedAt: string | null;
  parentSessionId: string | null;
  cwd: string | null;
  tree: PiTree;
  /** Recent toolCall id → tool name (results name their tool too; this covers older files). */
  calls: [string, string][];
}

const MAX_RECENT_CALLS = 128;
const UUID_AT_END = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i;




/** Text of a content field: a string, or text/image blocks. */
function contentText(content: unknown): string {
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

/** The session id a file path names (`<timestamp>_<uuid>.jsonl`). */
export function sessionIdFromPath(file: string): string | null {
  const m = UUID_AT_END.exec(file);
  return m ? m[1]!.toLowerCase() : null;
}

export class PiParser implements RecordParser<PiFileState> {
  /** Tree index per tree being read (several units may be read at once); built once per read. */
  private readonly indexes = new WeakMap<PiTree, TreeIndex>();

  init(unit: SourceUnit): PiFileState {
    const fileId = sessionIdFromPath(unit.path) ?? path.basename(unit.path, '.jsonl');
    return { sessionId: fileId, forkedAt: null, parentSessionId: null, cwd: null, tree: emptyTree(), calls: [] };
  }

  private treeOf(st: PiFileState): TreeIndex {
    let index = this.indexes.get(st.tree);
    if (!index) {
      index = new TreeIndex(st.tree);
      this.indexes.set(st.tree, index);
    }
    return index;
  }

  finish(agg: SessionAgg, st: PiFileState): void {
    const view = this.treeOf(st).view(0);
    agg.userTurns = view.userTurns;
    agg.firstPrompt = view.firstPrompt;
    agg.toolNames = view.toolNames;
    agg.otherBranchSeqs = view.otherBranchSeqs;
    agg.cwd = st.cwd;
    agg.parentId = st.parentSessionId;
    if (st.parentSessionId !== null) agg.parentKind = 'fork';
  }

  handle(rec: TailRecord, st: PiFileState, sink: RecordSink): void {
    const r = rec.value;
    const type = str(r.type);
    if (type === 'session') {
      this.header(r, st, sink);
      return;
    }
    if (type === null) return;
    const agg = sink.session(st.sessionId);
    const ts = str(r.timestamp);
    const copied = st.forkedAt !== null && ts !== null && ts < st.forkedAt;
    // A fork's copies keep their source's (older) times: the fork itself starts at its header.
    if (!copied) noteTimestamp(agg, ts);
    const tree = this.treeOf(st);
    const id = str(r.id) ?? `#${rec.line}`;
    const parentId = 'parentId' in r ? str(r.parentId) : undefined;
    const at = tree.add(id, parentId);
    const before = agg.seq;
    switch (type) {
      case 'message':
        if (isObj(r.message)) this.message(r.message, agg, st, sink, tree, at, ts, id, copied);
        break;
      case 'compaction':
      case 'branch_summary': {
        // Ready-made summaries pi wrote for itself: kept as system text for the brief and search.
        const summary = str(r.summary);
        if (summary) sink.push(agg, 'system', 'text', summary, null, null, false, ts, id);
        break;
      }
      case 'custom_message': {
        // Sent to the model as a user message (an extension's injected context), but not typed.
        const text = contentText(r.content);
        if (text) sink.push(agg, 'system', 'text', text, null, null, false, ts, id);
        break;
      }
      case 'model_change': {
        const model = str(r.modelId);
        if (model) agg.model = model;
        break;
      }
      case 'session_info': {
        const name = str(r.name);
        if (name !== null) {
          agg.title = name.trim() || null; // `/name` with nothing clears it
          agg.titleRank = 1;
        }
        break;
      }
      default:
      // thinking_level_change, label, custom (extension state, not sent to the model): tree only.
    }
    st.tree.msgs[at] = agg.seq - before;
  }

  private header(r: Obj, st: PiFileState, sink: RecordSink): void {
    const id = str(r.id);
    if (id && id !== st.sessionId && st.tree.ids.length === 0) st.sessionId = id;
    const agg = sink.session(st.sessionId);
    const ts = str(r.timestamp);
    noteTimestamp(agg, ts);
    st.cwd = str(r.cwd) ?? st.cwd;
    const parentSession = str(r.parentSession);
    if (parentSession) {
      st.parentSessionId = sessionIdFromPath(parentSession);
      st.forkedAt = ts;
    }
  }

  private message(m: Obj, agg: SessionAgg, st: PiFileState, sink: RecordSink, tree: TreeIndex, at: number, ts: string | null, id: string, copied: boolean): void {
    switch (m.role) {
      case 'user': {
        const text = contentText(m.content);
        if (text.length === 0) return;
        tree.notePrompt(at, text);
        sink.push(agg, 'user', 'text', text, null, null, false, ts, id);
        return;
      }
      case 'assistant':
        this.assistant(m, agg, st, sink, tree, at, ts, id, copied);
        return;
      case 'toolResult': {
        const callId = str(m.toolCallId);
        const name = str(m.toolName) ?? (callId ? lookupCall(st, callId) : null);
        sink.push(agg, 'tool', 'tool_result', contentText(m.content), name, callId, m.isError === true, ts, id);
        return;
      }
      case 'bashExecution': {
        // `!cmd` typed by the user: a shell run pi shows the model, not a prompt.
        const command = str(m.command) ?? '';
        sink.push(agg, 'user', 'tool_call', JSON.stringify({ command }), 'bash', id, false, ts, id);
        const exit = m.exitCode;
        const failed = m.cancelled === true || (typeof exit === 'number' && exit !== 0);
        sink.push(agg, 'tool', 'tool_result', str(m.output) ?? '', 'bash', id, failed, ts, id);
        return;
      }
      case 'custom':
      case 'hookMessage': {
        // Extension messages (v2 called them hookMessage): context, not something typed.
        const text = contentText(m.content);
        if (text) sink.push(agg, 'system', 'text', text, null, null, false, ts, id);
        return;
      }
      default:
    }
  }

  private assistant(m: Obj, agg: SessionAgg, st: PiFileState, sink: RecordSink, tree: TreeIndex, at: number, ts: string | null, id: string, copied: boolean): void {
    const model = str(m.model);
    if (model) agg.model = model;
    if (!copied && isObj(m.usage)) {
      const u = m.usage;
      agg.usage.input += num(u.input);
      agg.usage.output += num(u.output);
      agg.usage.cacheRead += num(u.cacheRead);
      agg.usage.cacheWrite += num(u.cacheWrite);
      if (isObj(u.cost)) agg.usage.costUsd = (agg.usage.costUsd ?? 0) + num(u.cost.total);
    }
    const content = m.content;
    if (typeof content === 'string') {
      if (content) sink.push(agg, 'assistant', 'text', content, null, null, false, ts, id);
    } else if (Array.isArray(content)) {
      for (const b of content) {
        if (!isObj(b)) continue;
        if (b.type === 'text') {
          const text = str(b.text);
          if (text) sink.push(agg, 'assistant', 'text', text, null, null, false, ts, id);
        } else if (b.type === 'thinking') {
          const text = str(b.thinking);
          if (text) sink.push(agg, 'assistant', 'thinking', text, null, null, false, ts, id);
        } else if (b.type === 'toolCall') {
          const name = str(b.name) ?? 'unknown';
          const callId = str(b.id);
          tree.noteTool(at, name);
          if (callId) rememberCall(st, callId, name);
          sink.push(agg, 'assistant', 'tool_call', JSON.stringify(b.arguments ?? {}), name, callId, false, ts, id);
        }
      }
    }
    if (m.stopReason === 'error' || m.stopReason === 'aborted') {
      const why = str(m.errorMessage) ?? (m.stopReason === 'aborted' ? 'Request aborted' : 'Request failed');
      sink.push(agg, 'system', 'text', why, null, null, true, ts, id);
      // pi 0.73 keeps the provider's answer as the error: `429 {"type":"error","error":{"type":"rate_limit_error",…}}`.
      if (m.stopReason === 'error' && !copied) {
        const { status, type } = providerError(why);
        const verdict = classifyApiError({ status, type, text: why });
        if (verdict.class === 'limit') sink.usageEvent(agg, limitRecord(`limit:${id}`, ts, reachedLimit(verdict.kind, why)));
      }
    }
  }
}

function rememberCall(st: PiFileState, id: string, name: string): void {
  st.calls.push([id, name]);
  if (st.calls.length > MAX_RECENT_CALLS) st.calls.shift();
}

function lookupCall(st: PiFileState, id: string): string | null {
  for (let i = st.calls.length - 1; i >= 0; i--) if (st.calls[i]![0] === id) return st.calls[i]![1];
  return null;
}

/** The HTTP status and the provider's error type in pi's error text (`429 {"type":"error","error":{…}}`). */
function providerError(text: string): { status: number | null; type: string | null } {
  const m = /^(\d{3})\b\s*(.*)$/s.exec(text.trim());
  if (!m) return { status: null, type: null };
  let type: string | null = null;
  try {
    const body = JSON.parse(m[2]!) as unknown;
    const err = isObj(body) && isObj(body.error) ? body.error : null;
    type = err ? (str(err.type) ?? str(err.code) ?? str(err.status)) : null;
  } catch {
    // not JSON: the status alone
  }
  return { status: Number(m[1]), type };
}
