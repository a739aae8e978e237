/**
 * What was decided, ruled out, blocked and planned in a session, read from the conversation itself:
 * the user's own statements and the agents' structured records, in message order, so a later
 * correction replaces what it corrects, a resolved blocker leaves the list and the latest todo
 * list or summary replaces the ones before it. Every fact keeps the message (`seq`) it came from.
 */
import type { Message } from '../../../shared/model.js';
import { isCompactionSummary, isTodoTool, planText, sectionItems, todoItems, type RecordItem } from './agent-records.js';
import { keyTerms, mayStateFacts, sameSubject, userStatements, type StatementKind } from './statements.js';

export type FactKind = StatementKind | 'done';
export type FactSource = 'user' | 'todo' | 'plan' | 'summary';

export interface Fact {
  kind: FactKind;
  text: string;
  seq: number;
  source: FactSource;
  /** Earlier statements (seqs) this one corrects and replaces. */
  corrects: number[];
}

export interface ConversationFacts {
  /** Decisions and constraints still in force, oldest first. */
  decisions: Fact[];
  rejected: Fact[];
  blockers: Fact[];
  nextSteps: Fact[];
  done: Fact[];
  /** Superseded statement seq → the message that corrected it, or said it was resolved or done. */
  superseded: Map<number, Supersession>;
}

export interface Supersession {
  by: number;
  how: 'corrected' | 'resolved' | 'replaced';
}

const LIMITS = { decisions: 40, rejected: 25, blockers: 15, nextSteps: 25, done: 25 };

interface Tracked extends Fact {
  /** Distinctive terms, computed when a correction or resolution first needs them. */
  terms: Set<string> | null;
  /** Normalized text, for telling repeats. */
  key: string;
}

const termsOf = (f: Tracked): Set<string> => (f.terms ??= keyTerms(f.text));

/**
 * Working lists are bounded (oldest dropped) so a session that states thousands of facts costs
 * linear time; the brief shows at most LIMITS of each anyway.
 */
const WORKING_CAP = 200;

/** Lower case, punctuation and spacing folded (letters beyond ASCII kept as they are). */
function normalize(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9\u00c0-\uffff]+/g, ' ').trim();
}

export interface FactInput {
  /** The user's text messages, ascending seq. */
  userTexts: Message[];
  /** System texts (compaction summaries live there), ascending seq. */
  systemTexts: Message[];
  /** Every tool call, ascending seq. */
  toolCalls: Message[];
}

export function extractFacts({ userTexts, systemTexts, toolCalls }: FactInput): ConversationFacts {
  const firm: Tracked[] = []; // decisions, constraints, rejections
  const blockers: Tracked[] = [];
  const next: Tracked[] = [];
  const done: Tracked[] = [];
  const superseded = new Map<number, Supersession>();

  const make = (kind: FactKind, text: string, seq: number, source: FactSource): Tracked => ({
    kind,
    text,
    seq,
    source,
    corrects: [],
    terms: null,
    key: normalize(text),
  });
  /**
   * Already listed: the same words, or (for the agents' records, which restate the user's steps)
   * one item's words inside the other's ("Wire the uploader" / "Wire the uploader to …").
   */
  // Keys present in each list (with counts), so telling an exact repeat costs one lookup.
  const keys = new Map<Tracked[], Map<string, number>>();
  const keysOf = (list: Tracked[]) => {
    let k = keys.get(list);
    if (!k) keys.set(list, (k = new Map()));
    return k;
  };
  const forget = (list: Tracked[], f: Tracked) => {
    const k = keysOf(list);
    const n = (k.get(f.key) ?? 0) - 1;
    if (n > 0) k.set(f.key, n);
    else k.delete(f.key);
  };
  const has = (list: Tracked[], fact: Tracked, loose = false) => {
    const key = fact.key;
    if (keysOf(list).has(key)) return true;
    return loose && list.some((f) => (key.length >= 12 && f.key.includes(key)) || (f.key.length >= 12 && key.includes(f.key)));
  };
  const push = (list: Tracked[], fact: Tracked) => {
    list.push(fact);
    const k = keysOf(list);
    k.set(fact.key, (k.get(fact.key) ?? 0) + 1);
    if (list.length > WORKING_CAP) forget(list, list.shift()!);
  };
  const removeWhere = (list: Tracked[], pred: (f: Tracked) => boolean, by: number, how: Supersession['how']): Tracked[] => {
    const gone: Tracked[] = [];
    for (let i = list.length - 1; i >= 0; i--) {
      if (pred(list[i]!)) {
        gone.push(list[i]!);
        forget(list, list[i]!);
        // Only statements in the user's words are quoted in the excerpt; a message keeps its first mark.
        if (list[i]!.source === 'user' && !superseded.has(list[i]!.seq)) superseded.set(list[i]!.seq, { by, how });
        list.splice(i, 1);
      }
    }
    return gone;
  };

  const addFirm = (fact: Tracked, correction: boolean) => {
    if (correction) {
      const replaced = removeWhere(firm, (f) => f.seq < fact.seq && sameSubject(termsOf(f), termsOf(fact)), fact.seq, 'corrected');
      fact.corrects = replaced.map((f) => f.seq).sort((a, b) => a - b);
    }
    if (!has(firm, fact)) push(firm, fact);
  };

  /** A blocker that is gone leaves the blockers; work that is done also leaves the next steps. */
  const resolveWith = (fact: Tracked, what: 'blocker' | 'step') => {
    const resolvedBlockers = removeWhere(blockers, (b) => b.seq < fact.seq && sameSubject(termsOf(b), termsOf(fact)), fact.seq, 'resolved');
    const finished = what === 'step' ? removeWhere(next, (n) => n.seq < fact.seq && sameSubject(termsOf(n), termsOf(fact)), fact.seq, 'resolved') : [];
    // What is done is said by the message that says so, not by the old step or blocker.
    if ((resolvedBlockers.length || finished.length) && !has(done, fact)) push(done, { ...fact, kind: 'done' });
  };

  // What each message holds, in message order: a user message as its text (a closure for each of
  // thousands of them made a long session's brief slower), an agent's record as how to read it.
  type Event = { seq: number; what: 'user'; text: string } | { seq: number; what: 'record'; items: () => RecordItem[]; source: FactSource };
  const events: Event[] = [];
  for (const m of userTexts) {
    // Gemini/Qwen keep the compression snapshot as a user message: a record, not the user's words.
    if (isCompactionSummary(m.text)) events.push({ seq: m.seq, what: 'record', items: () => sectionItems(m.text), source: 'summary' });
    else if (mayStateFacts(m.text)) events.push({ seq: m.seq, what: 'user', text: m.text });
  }
  for (const m of systemTexts) {
    if (isCompactionSummary(m.text)) events.push({ seq: m.seq, what: 'record', items: () => sectionItems(m.text), source: 'summary' });
  }
  for (const c of toolCalls) {
    if (isTodoTool(c.toolName)) {
      events.push({ seq: c.seq, what: 'record', items: () => todoItems(c.text) ?? [], source: 'todo' });
      continue;
    }
    if (c.text.length < 40 || !/plan/i.test(c.text)) continue; // cheap pre-filter before parsing
    const plan = planText(c.toolName, c.text);
    if (plan) events.push({ seq: c.seq, what: 'record', items: () => sectionItems(plan), source: 'plan' });
  }

  function applyUser(text: string, seq: number): void {
    const statements = userStatements(text);
    // A list of next steps in the user's words supersedes the agents' earlier lists.
    if (statements.filter((s) => s.kind === 'next' && !s.resolves).length >= 2) removeWhere(next, (f) => fromRecord(f) && f.seq < seq, seq, 'replaced');
    for (const st of statements) {
      const fact = make(st.kind, st.text, seq, 'user');
      if (st.resolves) resolveWith(fact, st.resolves);
      if (st.kind === 'decision' || st.kind === 'constraint' || st.kind === 'rejection') addFirm(fact, st.correction);
      else if (st.kind === 'blocker') {
        if (!has(blockers, fact)) push(blockers, fact);
      } else if (st.kind === 'next' && !st.resolves && !has(next, fact)) push(next, fact);
    }
  }

  /** The newest whole plan wins: it replaces the open items earlier records (todo lists, plans, summaries) gave. */
  const fromRecord = (f: Tracked) => f.source !== 'user';

  function applyRecord(items: RecordItem[], seq: number, source: FactSource): void {
    if (!items.length) return;
    const replaced = (f: Tracked) => fromRecord(f) && f.seq < seq;
    if (items.some((i) => i.kind === 'next' || i.kind === 'done')) removeWhere(next, replaced, seq, 'replaced');
    if (items.some((i) => i.kind === 'blocker')) removeWhere(blockers, replaced, seq, 'replaced');
    for (const item of items) {
      const fact = make(item.kind, item.status === 'in_progress' ? `${item.text} (in progress)` : item.text, seq, source);
      if (item.kind === 'done') {
        resolveWith(fact, 'step');
        if (!has(done, fact, true)) push(done, { ...fact, kind: 'done' });
      } else if (item.kind === 'next') {
        if (!has(next, fact, true)) push(next, fact);
      } else if (item.kind === 'blocker') {
        if (!has(blockers, fact, true)) push(blockers, fact);
      } else addFirm(fact, false);
    }
  }

  events.sort((a, b) => a.seq - b.seq);
  for (const e of events) {
    if (e.what === 'user') applyUser(e.text, e.seq);
    else applyRecord(e.items(), e.seq, e.source);
  }

  const strip = (list: Tracked[], limit: number): Fact[] =>
    list
      .sort((a, b) => a.seq - b.seq)
      .slice(-limit)
      .map(({ terms: _terms, key: _key, ...f }) => f);
  return {
    decisions: strip(firm.filter((f) => f.kind !== 'rejection'), LIMITS.decisions),
    rejected: strip(firm.filter((f) => f.kind === 'rejection'), LIMITS.rejected),
    blockers: strip(blockers, LIMITS.blockers),
    nextSteps: strip(next, LIMITS.nextSteps),
    done: strip(done, LIMITS.done),
    superseded,
  };
}
