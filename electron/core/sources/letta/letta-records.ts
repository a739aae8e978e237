/**
 * Letta Code (local backend) conversations: `messages.jsonl` is pi's session format v3, so pi's
 * parser reads it; this layer adds what Letta does differently. The session id is the conversation
 * folder's key (a subagent's default conversation says just `default` in its header). User
 * messages start with injected `<system-reminder>` blocks (environment, ids, MCP servers): they are
 * not typed, so they are dropped, after taking the git branch from the first one and, for a
 * subagent, its parent conversation ("This message is from agent …, conversation …").
 * A `<task-notification>` (a subagent's report coming back) is kept as system text, not a prompt.
 * The title is `conversation.json`'s `summary`, a rewritten document read in letta-adapter.ts.
 */
import type { TailRecord } from '../jsonl/jsonl-tail.js';
import type { RecordParser, RecordSink, SessionAgg } from '../jsonl/jsonl-session-reader.js';
import { PiParser, type PiFileState } from '../pi/pi-records.js';
import type { SourceUnit } from '../types.js';
import { isObj, type Obj } from '../jsonl/record-values.js';


export interface LettaFileState {
  pi: PiFileState;
  /** The conversation folder: the key of its conversation.json. */
  dir: string;
  gitBranch: string | null;
  parentConversation: string | null;
  /** An environment reminder was seen (the branch is only taken from the first). */
  sawEnvironment: boolean;
}

const BRANCH = /\*\*Git repository\*\*:\s*Yes \(branch: ([^)\s]+)\)/;
const FROM_PARENT = /This message is from agent \S+, conversation ([^\s,]+?)\.?\s/;
const TITLE_RANK = 2;


/** The conversation key a folder name stands for (base64url of `conversation:<id>` or `default:<agent id>`). */
export function conversationKey(folderName: string): string | null {
  const decoded = Buffer.from(folderName, 'base64url').toString('utf8');
  if (Buffer.from(decoded, 'utf8').toString('base64url') !== folderName.replace(/=+$/, '')) return null;
  if (decoded.startsWith('conversation:')) return decoded.slice('conversation:'.length);
  if (decoded.startsWith('default:')) return decoded;
  return null;
}

function folderOf(file: string): { dir: string; name: string } {
  const norm = file.replace(/\\/g, '/');
  const dirEnd = norm.lastIndexOf('/');
  const dir = file.slice(0, dirEnd);
  return { dir, name: norm.slice(0, dirEnd).slice(norm.slice(0, dirEnd).lastIndexOf('/') + 1) };
}

export class LettaParser implements RecordParser<LettaFileState> {
  private readonly pi = new PiParser();

  constructor(private readonly titleOf: (dir: string) => string | null) {}

  init(unit: SourceUnit): LettaFileState {
    const { dir, name } = folderOf(unit.path);
    const pi = this.pi.init(unit);
    pi.sessionId = conversationKey(name) ?? name;
    return { pi, dir, gitBranch: null, parentConversation: null, sawEnvironment: false };
  }

  finish(agg: SessionAgg, st: LettaFileState): void {
    this.pi.finish(agg, st.pi);
    agg.gitBranch = st.gitBranch;
    if (st.parentConversation) {
      agg.parentId = st.parentConversation;
      agg.parentKind = 'subagent';
    }
    const title = this.titleOf(st.dir);
    agg.title = title;
    agg.titleRank = title ? TITLE_RANK : 0;
  }

  handle(rec: TailRecord, st: LettaFileState, sink: RecordSink): void {
    const r = rec.value;
    if (r.type === 'session') {
      // The header's id is `default` for an agent's default conversation: the folder names it.
      this.pi.handle({ ...rec, value: { ...r, id: st.pi.sessionId } }, st.pi, sink);
      return;
    }
    if (r.type === 'message' && isObj(r.message) && r.message.role === 'user' && Array.isArray(r.message.content)) {
      this.pi.handle({ ...rec, value: this.userEntry(r, r.message, r.message.content, st) }, st.pi, sink);
      return;
    }
    this.pi.handle(rec, st.pi, sink);
    if (r.type === 'message' && isObj(r.message) && r.message.role === 'assistant' && isObj(r.message.usage)) this.requestUsage(r, r.message, r.message.usage, st, sink);
  }

  /**
   * Each assistant message is one model request with its own usage: delivered per request, so
   * context fill is the last request's prompt, not the conversation's total (pi's parser sums it).
   */
  private requestUsage(r: Obj, m: Obj, u: Obj, st: LettaFileState, sink: RecordSink): void {
    const agg = sink.session(st.pi.sessionId);
    const id = typeof r.id === 'string' ? r.id : `#${agg.seq}`;
    const n = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
    sink.usageEvent(agg, {
      key: id,
      at: typeof r.timestamp === 'string' ? r.timestamp : null,
      model: typeof m.model === 'string' ? m.model : null,
      input: n(u.input),
      output: n(u.output),
      cacheRead: n(u.cacheRead),
      cacheWrite: n(u.cacheWrite),
      reasoning: n(u.reasoning),
      contextWindow: null,
      limits: null,
    });
  }

  /** The entry pi should see for a user message: its typed text, or the task notification as context. */
  private userEntry(r: Obj, m: Obj, blocks: unknown[], st: LettaFileState): Obj {
    const typed: Obj[] = [];
    const notices: string[] = [];
    for (const b of blocks) {
      if (!isObj(b) || b.type !== 'text' || typeof b.text !== 'string') {
        if (isObj(b)) typed.push(b);
        continue;
      }
      const text = b.text.trimStart();
      if (text.startsWith('<system-reminder>')) this.reminder(text, st);
      else if (text.startsWith('<task-notification>')) notices.push(b.text);
      else typed.push(b);
    }
    if (typed.length === 0 && notices.length > 0) {
      const { message: _message, ...rest } = r;
      return { ...rest, type: 'custom_message', content: notices.join('\n') };
    }
    return { ...r, message: { ...m, content: typed } };
  }

  private reminder(text: string, st: LettaFileState): void {
    if (!st.sawEnvironment && text.includes('**Current working directory**')) {
      st.sawEnvironment = true;
      st.gitBranch = BRANCH.exec(text)?.[1] ?? null;
    }
    if (st.parentConversation === null) {
      const m = FROM_PARENT.exec(text);
      if (m) st.parentConversation = m[1]!;
    }
  }
}
