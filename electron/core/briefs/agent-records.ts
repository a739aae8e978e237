/**
 * The agents' own structured records of where work stands: todo lists (Claude `TodoWrite`, Codex
 * `update_plan`, OpenCode `todowrite`, Gemini `write_todos`, Qwen `todo_write`), plan files and
 * plan-mode plans, and compaction summaries (Claude's compact summary, Codex `compacted`, pi
 * `compaction`, Gemini/Qwen `<state_snapshot>`, Hermes' `[CONTEXT COMPACTION]`), recognised from the stored message text alone so
 * any adapter that keeps the text feeds them.
 */
import { parseToolInput } from './tool-input.js';

export type RecordItemKind = 'decision' | 'constraint' | 'next' | 'blocker' | 'done';

export interface RecordItem {
  kind: RecordItemKind;
  text: string;
  /** Status word the record gave ("in_progress"), when it gave one. */
  status: string | null;
}

const MAX_ITEM_CHARS = 300;

function clip(text: string): string {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length <= MAX_ITEM_CHARS ? t : `${t.slice(0, MAX_ITEM_CHARS - 1).trimEnd()}…`;
}

/** Tool names whose input is a whole todo list or plan (each call replaces the previous one). */
export function isTodoTool(name: string | null): boolean {
  return !!name && /^(?:todowrite|todo_write|write_todos|update_plan|todo)$/i.test(name.replace(/^.*__/, ''));
}

/** A todo-list call's items: open ones as next steps, finished ones as done. */
export function todoItems(text: string): RecordItem[] | null {
  const input = parseToolInput(text);
  if (!input) return null;
  const list = Array.isArray(input.todos) ? input.todos : Array.isArray(input.plan) ? input.plan : null;
  if (!list) return null;
  const out: RecordItem[] = [];
  for (const raw of list) {
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) continue;
    const label = [raw.content, raw.step, raw.description, raw.title, raw.text].find((v) => typeof v === 'string' && v.trim());
    if (typeof label !== 'string') continue;
    const status = typeof raw.status === 'string' ? raw.status.toLowerCase() : null;
    if (status === 'cancelled' || status === 'canceled') continue;
    const done = status === 'completed' || status === 'done' || status === 'complete';
    const blocked = status === 'blocked';
    out.push({ kind: done ? 'done' : blocked ? 'blocker' : 'next', text: clip(label), status });
  }
  return out;
}

const PLAN_PATH = /(?:^|[\\/])(?:[\w.-]*[-_.])?plan(?:[-_.][\w.-]*)?\.md$|[\\/]plans[\\/][^\\/]+\.md$/i;

/** Markdown of a plan the agent wrote: a plan file (Write/write_file/create, apply_patch add) or a plan-mode plan. */
export function planText(toolName: string | null, text: string): string | null {
  const name = (toolName ?? '').replace(/^.*__/, '');
  if (/^exit_?plan_?mode$/i.test(name)) {
    const input = parseToolInput(text);
    return input && typeof input.plan === 'string' ? input.plan : null;
  }
  if (/^(?:write|write_file|create|create_file|str_replace_based_edit_tool)$/i.test(name)) {
    const input = parseToolInput(text);
    if (!input) return null;
    const p = [input.file_path, input.filePath, input.path, input.absolute_path].find((v) => typeof v === 'string');
    const body = [input.content, input.file_text, input.contents].find((v) => typeof v === 'string');
    return typeof p === 'string' && PLAN_PATH.test(p) && typeof body === 'string' ? body : null;
  }
  if (/apply_patch|^patch$/i.test(name) || text.includes('*** Add File:')) {
    const m = /\*\*\* Add File: ([^\n]+)\n((?:\+[^\n]*\n?)+)/.exec(text.replace(/\\n/g, '\n'));
    if (m && PLAN_PATH.test(m[1]!.trim())) return m[2]!.split('\n').map((l) => l.slice(1)).join('\n');
  }
  return null;
}

/** Whether a message text is a compaction summary some agent wrote into its store. */
export function isCompactionSummary(text: string): boolean {
  // Every agent's summary runs to several sections: a short message is never one (the common case).
  if (text.length < 120) return false;
  return (
    /<state_snapshot>/.test(text) ||
    /^\s*\[(?:CONTEXT COMPACTION|CONTEXT SUMMARY|COMPACTED CONTEXT)/i.test(text) ||
    /<summary>[\s\S]*<\/summary>/.test(text) ||
    /continued from a previous conversation that ran out of context/i.test(text) ||
    /^\s*##\s+Goal\b[\s\S]*^##\s+(?:Progress|Key Decisions|Next Steps)\b/m.test(text) ||
    /^\s*(?:\d+\.\s*)?(?:Pending Tasks|Optional Next Step|Current Work)\s*:/m.test(text)
  );
}

/** Section headings (Markdown, numbered "7. Pending Tasks:", XML tags) mapped to what their items are. */
function headingKind(heading: string): RecordItemKind | 'skip' | null {
  const h = heading.toLowerCase().replace(/[_*#:]/g, ' ').replace(/\s+/g, ' ').trim();
  if (/^(?:key )?decisions?(?: made)?$|^key decisions|^settled decisions/.test(h)) return 'decision';
  if (/constraints?\b|preferences$|^requirements$/.test(h)) return 'constraint';
  if (/^(?:immediate |optional )?next steps?$|^pending tasks?$|^pending work|^current plan$|^task state$|^plan$|^steps$|^to ?do$|^todos?$|^remaining|^in progress$/.test(h)) return 'next';
  if (/^blocked$|^blockers?$|^open (?:issues|questions|items)|^risks?$/.test(h)) return 'blocker';
  if (/^done$|^completed$|^progress$/.test(h)) return 'done';
  return heading ? 'skip' : null;
}

const NONE = /^(?:\(?none\)?\.?|n\/a|nothing(?: yet)?\.?|\(nothing yet\)|-)$/i;

/**
 * Items of a structured summary or plan: bullet and numbered lines under the headings that name
 * decisions, constraints, next steps, blockers and done work. `[DONE]`/`[x]` items are done.
 */
export function sectionItems(text: string): RecordItem[] {
  const out: RecordItem[] = [];
  let kind: RecordItemKind | 'skip' | null = null;
  // XML-ish sections (Gemini's <state_snapshot>) become headings first.
  const normalized = text.replace(/<\/?state_snapshot>/g, '').replace(/<([a-z_]+)>/g, '\n## $1\n').replace(/<\/[a-z_]+>/g, '\n');
  for (const raw of normalized.split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    const md = /^#{1,6}\s+(.+?)\s*#*$/.exec(line) ?? /^(?:\d+\.\s*)?([A-Z][A-Za-z /&]{2,40}):\s*$/.exec(line) ?? /^\*\*([^*]{3,40})\*\*:?\s*$/.exec(line);
    if (md) {
      kind = headingKind(md[1]!);
      continue;
    }
    if (!kind || kind === 'skip') continue;
    const item = /^(?:[-*•]|\d+[.)])\s+(.+)$/.exec(line);
    const body = (item ? item[1]! : line).trim();
    if (!body || NONE.test(body)) continue;
    const done = /^\[(?:x|done|completed)\]\s*/i.exec(body);
    const open = /^\[(?: |todo|in progress|in_progress|pending)\]\s*/i.exec(body);
    const textOnly = body.replace(/^\[[^\]]*\]\s*/, '').replace(/\s*<--.*$/, '').replace(/^\*\*([^*]+)\*\*:?\s*/, '$1: ');
    if (!textOnly || NONE.test(textOnly)) continue;
    const itemKind: RecordItemKind = done ? 'done' : kind === 'done' && open ? 'next' : kind;
    out.push({ kind: itemKind, text: clip(textOnly), status: done ? 'done' : open ? 'open' : null });
  }
  return out;
}
