/**
 * What a user said that the next agent must know: decisions (with their reasons), rejected
 * alternatives, constraints, corrections, blockers and plans, found sentence by sentence with
 * plain patterns (local, fast, no model). Questions and hypotheticals are never taken as facts.
 */

export type StatementKind = 'decision' | 'rejection' | 'constraint' | 'blocker' | 'next';

export interface Statement {
  kind: StatementKind;
  text: string;
  /** The sentence corrects something said earlier ("actually", "correction:", "after all"). */
  correction: boolean;
  /** The sentence says an earlier blocker is gone ('blocker') or an earlier step is done ('step'). */
  resolves: 'blocker' | 'step' | null;
}

const MAX_STATEMENT_CHARS = 400;

const CORRECTION = /^\s*(?:actually|correction|scratch that|change of plan|on second thought|update|wait)\b|\b(?:after all|changed (?:my|our) minds?|i was wrong|instead of what i said|reverse (?:that|the) decision|no longer (?:going to|want to|using)|instead)\b/i;

// Rejections: what will not be done or used. Checked before decisions, where both read alike.
const REJECTION = [
  /\b(?:we|i)\s+(?:will|shall|should|do|are|'re|am)\s*(?:not|n't)\s+(?:going\s+to\s+)?(?:use|go\s+with|adopt|add|switch|introduce|pull\s+in|depend\s+on|migrate|rely\s+on|take|pick|choose|build)\b/i,
  /\b(?:we|i)\s*(?:won't|wont|can't|cannot)\s+(?:use|go\s+with|adopt|add|switch|introduce|pull\s+in|depend\s+on|migrate|rely\s+on|pick|choose)\b/i,
  /\b(?:we're|we\s+are|i'm|i\s+am)\s+not\s+(?:going\s+to\s+(?:use|go\s+with|adopt|add|switch)|using|adopting|switching|going\s+with)\b/i,
  /\b(?:rejected|ruled\s+out|decided\s+against|dropped\s+the\s+idea|drop\s+the\s+idea|not\s+an\s+option|off\s+the\s+table)\b/i,
  /\b(?:don't|do\s+not|never)\s+(?:use|add|introduce|switch\s+to|adopt|pull\s+in|go\s+with|depend\s+on)\b/i,
  // "No Redis, …" rules a thing out; "No luck, …" / "No worries, …" do not.
  /^\s*no\s+(?!(?:luck|worries|worry|problem|problems|idea|clue|way|rush|need|thanks|change|changes|errors?|issues?|output|response|matter|doubt|kidding|pressure)\b)[\w.+#-]+(?:\s+[\w.+#-]+)?\s*(?:[,:;—-]|please\b)/i,
  // "No Redis for session storage — …"
  /^\s*no\s+[\w.+#-]+(?:\s+[\w.+#-]+)?\s+for\s+[^,:;—–]{1,60}(?:[,:;—–]|\s-\s)/i,
  /\b(?:let's|lets|let\s+us)\s+not\s+(?:use|go\s+with|adopt|add|pull\s+in|switch\s+to|introduce|depend\s+on|rely\s+on)\b/i,
  /\b(?:i'?d|we'?d|i\s+would|we\s+would)\s+rather\s+not\s+(?:use|go\s+with|adopt|add|pull\s+in|switch\s+to|introduce|depend\s+on|rely\s+on)\b/i,
  /\b(?:[Ww]e|I)\s+(?:(?:have|'ve)\s+)?(?:dropped|ditched|scrapped|abandoned)\s+(?:the\s+idea\s+of\s+)?[A-Z`]/,
  // "Please avoid Redis …": avoiding a named thing (not "avoid breaking the API", a constraint).
  /\b[Aa]void\s+(?:using\s+)?[A-Z`]/,
];

const DECISION = [
  /\b(?:we|i)\s*(?:'ve|\s+have)?\s*(?:decided|agreed|settled|chose|chosen|picked|opted|standardi[sz]ed)\b/i,
  /\b(?:let's|lets|we'll|we\s+will|we're\s+going\s+to|we\s+are\s+going\s+to|we\s+should|i\s+want\s+(?:us\s+)?to)\s+(?:go\s+with|use|keep|stick\s+with|adopt|switch\s+to|store|standardi[sz]e\s+on|move\s+to|build\s+on|rely\s+on)\b/i,
  /\b(?:decision|decided|verdict|final\s+answer|the\s+choice)\s*(?:is\s*)?:/i,
  /\b(?:we(?:'re|\s+are)\s+going|(?:we|i)(?:'ll|\s+will)\s+go|we\s+go|to\s+go)\s+with\b/i,
  /^\s*use\s+\S.*\b(?:because|since|so\s+that)\b/i,
  /(?:^|[,;:—]\s*)going\s+with\b/i,
];

const CONSTRAINT = [
  /\b(?:must(?:\s+not|n't)?|has\s+to|have\s+to|needs?\s+to\s+(?:stay|remain|be\s+kept))\b/i,
  /\b(?:always|never)\s+(?!mind\b)\w+/i,
  /\b(?:keep|leave)\b.{0,60}\b(?:stable|unchanged|as\s+is|untouched|backwards?[- ]compatible|intact|public)\b/i,
  /\b(?:don't|do\s+not)\s+(?:touch|change|modify|break|rename|remove|delete|commit|push|edit)\b/i,
  /\b(?:constraint|requirement|hard\s+rule|ground\s+rule)\s*:/i,
];

const BLOCKER = [
  /\bblock(?:ed|ing|er)\b/i,
  /\b(?:stuck\s+on|waiting\s+(?:on|for))\b/i,
  /\b(?:can't|cannot|can\s+not)\s+(?:proceed|continue|merge|deploy|release|ship|finish|test|go\s+on)\b/i,
];

const NEXT = [
  /\bnext\s+steps?\b|\bnext\s+up\b|\bnext,|\bnext\s+(?:we|i|you)\b|\bthe\s+next\s+thing\b/i,
  /\b(?:after\s+that|afterwards|then\s+we(?:'ll|\s+will|\s+need)|later\s+we(?:'ll|\s+will))\b/i,
  /^\s*(?:todo|to\s+do|follow[- ]up|remaining|plan)\s*:/i,
  /\b(?:still\s+(?:need|have)\s+to|we(?:'ll|\s+will)\s+(?:also\s+)?need\s+to|before\s+(?:we\s+)?(?:merge|merging|release|releasing|ship|shipping)|tomorrow)\b/i,
];

const UNBLOCKED = /\b(?:unblocked|no\s+longer\s+block(?:ed|ing)|(?:is|are|has\s+been|have\s+been|got|was|were)\s+(?:resolved|fixed|granted|approved|sorted(?:\s+out)?|cleared|issued)|blocker\s+is\s+(?:gone|resolved))\b/i;
const DONE = /\b(?:(?:is|are|has\s+been|have\s+been|got|was|were)\s+(?:now\s+)?(?:done|finished|completed|merged|landed|shipped))\b/i;

const NOT_A_FACT = /^\s*(?:if|whether|should\s+we|could\s+we|can\s+we|would\s+it|do\s+you|maybe|perhaps|what\s+if|how\s+about|is\s+it)\b/i;
/** A blocker word used for something else ("ad blocker", "code block"). */
const FALSE_BLOCKER = /\b(?:ad[- ]?blocker|code\s+block|blockquote|block\s+(?:size|device|storage|comment))\b/i;

/**
 * Word starts at least one pattern above needs: a message without any is skipped in one test
 * (most turns of a long session), which keeps a 20k-message session's brief fast.
 */
const TRIGGER =
  /\b(?:decid|decision|agree|settl|chose|picked|opt|standardi|go(?:ing)? with|let'?s|we'?ll|we will|we'?re|we are|we should|i want|won'?t|can'?t|cannot|not\b|never|always|must|ha(?:ve|s) to|needs? to|keep|leave|don'?t|reject|ruled|against|drop|option|table|block|stuck|waiting|next|after|then we|later we|todo|to do|follow|remaining|plan|still|before|tomorrow|actually|correction|scratch|second thought|update|wait|changed|wrong|instead|resolved|fixed|merged|granted|approved|landed|sorted|done|finished|completed|constrain|requir|rule|verdict|choice|use\b|no\s|rather not|avoid|dropped|ditched|scrapped|abandoned)/i;

/** Whether a message could state anything `userStatements` finds (a cheap pre-test). */
export function mayStateFacts(text: string): boolean {
  return TRIGGER.test(text);
}

/** Splits a message into sentences and list items; a following "because …" sentence stays with its claim. */
export function sentences(text: string): string[] {
  const out: string[] = [];
  const stripped = text.replace(/```[\s\S]*?```/g, ' ');
  for (const rawLine of stripped.split(/\n+/)) {
    const line = rawLine.replace(/^\s*(?:[-*•]|\d+[.)])\s+/, '').trim();
    if (!line) continue;
    for (const s of line.split(/(?<=[.!?])\s+(?=[A-Z"'`(])/)) {
      const t = s.trim();
      if (!t) continue;
      const prev = out.length ? out[out.length - 1]! : null;
      if (prev !== null && /^(?:because|since|that's\s+because|the\s+reason|reason:|so\s+that)\b/i.test(t)) out[out.length - 1] = `${prev} ${t}`;
      else out.push(t);
    }
  }
  return out;
}

/** Items of a "Next steps: 1. … 2. …" list written inline or on the following lines. */
function listAfterNextHeading(text: string): string[] | null {
  const m = /(?:^|\n)\s*(?:\*\*)?(?:next\s+steps?|todo|to\s+do|remaining|plan)(?:\*\*)?\s*:\s*([\s\S]*)$/i.exec(text);
  if (!m) return null;
  const body = m[1]!;
  const lines = body.split('\n');
  const items: string[] = [];
  const first = lines[0]!.trim();
  // Inline numbered list: "Next steps: 1. A 2. B".
  if (/\b1[.)]\s/.test(first)) {
    for (const part of first.split(/\s*\b\d+[.)]\s+/)) if (part.trim()) items.push(part.trim().replace(/[;,]$/, ''));
  } else if (first) items.push(first);
  for (const raw of lines.slice(1)) {
    const item = /^\s*(?:[-*•]|\d+[.)])\s+(.+)$/.exec(raw);
    if (item) items.push(item[1]!.trim());
    else if (raw.trim() && items.length) break;
  }
  return items.length ? items : null;
}

function clip(text: string): string {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length <= MAX_STATEMENT_CHARS ? t : `${t.slice(0, MAX_STATEMENT_CHARS - 1).trimEnd()}…`;
}

/**
 * A list of patterns as one or two regexes (the case-insensitive ones joined, the others joined):
 * a regex engine's leftmost match over alternatives is the earliest match of any of them, found in
 * one scan instead of one per pattern (sentence classification was most of a long session's brief).
 */
function joined(patterns: RegExp[]): RegExp[] {
  const group = (list: RegExp[], flags: string) => (list.length ? [new RegExp(list.map((re) => `(?:${re.source})`).join('|'), flags)] : []);
  return [...group(patterns.filter((re) => re.ignoreCase), 'i'), ...group(patterns.filter((re) => !re.ignoreCase), '')];
}

const REJECTION_ANY = joined(REJECTION);
const DECISION_ANY = joined(DECISION);
const CONSTRAINT_ANY = joined(CONSTRAINT);
const BLOCKER_ANY = joined(BLOCKER);
const NEXT_ANY = joined(NEXT);

/** Where the earliest match of any of `patterns` starts, or -1. */
function firstMatch(patterns: RegExp[], s: string): number {
  let best = -1;
  for (const re of patterns) {
    const m = re.exec(s);
    if (m && (best < 0 || m.index < best)) best = m.index;
  }
  return best;
}

const anyMatch = (patterns: RegExp[], s: string): boolean => patterns.some((re) => re.test(s));

/** The kind of one sentence, or null when it states nothing to carry over. */
export function classifySentence(s: string): Statement | null {
  if (s.length < 8 || /\?\s*$/.test(s) || NOT_A_FACT.test(s)) return null;
  const correction = CORRECTION.test(s);
  const resolves = DONE.test(s) ? 'step' : UNBLOCKED.test(s) ? 'blocker' : null;
  // A bare correction ("Actually, SQLite.") still replaces what it corrects; a bare resolution is a step.
  const kind = statementKind(s, resolves !== null) ?? (correction ? 'decision' : resolves ? 'next' : null);
  return kind && { kind, text: clip(s), correction, resolves };
}

/** What a sentence states by its patterns alone. */
function statementKind(s: string, resolves: boolean): StatementKind | null {
  if (!resolves && anyMatch(BLOCKER_ANY, s) && !FALSE_BLOCKER.test(s)) return 'blocker';
  const rejection = firstMatch(REJECTION_ANY, s);
  const decision = firstMatch(DECISION_ANY, s);
  if (rejection >= 0 && (decision < 0 || rejection <= decision)) return 'rejection';
  if (decision >= 0) return 'decision';
  if (anyMatch(NEXT_ANY, s)) return 'next';
  if (anyMatch(CONSTRAINT_ANY, s)) return 'constraint';
  return null;
}

/** OpenCode's `run` stores a prompt with spaces wrapped in double quotes: the user's words are inside. */
export function unwrapPrompt(text: string): string {
  const t = text.trim();
  return t.length >= 2 && t.startsWith('"') && t.endsWith('"') ? t.slice(1, -1) : text;
}

/** What a user says is at the top; below that a long message is pasted logs or code. */
const STATEMENT_SCAN_CHARS = 6000;

/** Every statement in a user message, in order. */
export function userStatements(message: string): Statement[] {
  const out: Statement[] = [];
  const unwrapped = unwrapPrompt(message);
  const text = unwrapped.length > STATEMENT_SCAN_CHARS ? unwrapped.slice(0, STATEMENT_SCAN_CHARS) : unwrapped;
  if (!mayStateFacts(text)) return out;
  const list = listAfterNextHeading(text);
  const listed = new Set<string>();
  if (list) {
    for (const item of list) {
      const s = classifySentence(item);
      // A listed step is a next step unless it says more (a blocker inside a plan stays a blocker).
      out.push(s && s.kind !== 'next' && s.kind !== 'constraint' ? s : { kind: 'next', text: clip(item), correction: false, resolves: null });
      listed.add(clip(item));
    }
  }
  for (const s of sentences(text)) {
    const st = classifySentence(s);
    if (!st) continue;
    if ([...listed].some((l) => st.text.includes(l) || l.includes(st.text))) continue;
    // "Next steps:" headings themselves are not steps.
    if (st.kind === 'next' && list && /^(?:\*\*)?(?:next\s+steps?|todo|to\s+do|remaining|plan)(?:\*\*)?\s*:?\s*(?:1[.)])?\s*$/i.test(s)) continue;
    out.push(st);
  }
  return out;
}

const STOP = new Set(
  'the a an and or but of to in on for with without by from at as is are be been was were will would should could can we i you it this that these those our my your they them their there here not no after all just also then than into over out about use using used keep going go actually correction instead because since so now still need needs step steps next please let lets let\'s decided decide decision store stores'.split(
    ' ',
  ),
);

/** Distinctive words of a statement: names, code, identifiers; what two statements about one subject share. */
export function keyTerms(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(/`([^`]+)`/g)) out.add(m[1]!.toLowerCase());
  for (const m of text.matchAll(/[A-Za-z][\w.+#/-]*[\w+#]|[A-Za-z]/g)) {
    const w = m[0];
    const lower = w.toLowerCase();
    if (STOP.has(lower) || lower.length < 3) continue;
    // Capitalised mid-sentence words, identifiers with digits/dots/dashes, and long words.
    if ((/[A-Z]/.test(w.slice(1)) || (/^[A-Z]/.test(w) && m.index! > 0)) || /[\d._/-]/.test(w) || lower.length >= 6) out.add(lower);
  }
  return out;
}

/** Whether a later statement is about the same subject as an earlier one (shares distinctive terms). */
export function sameSubject(a: Set<string>, b: Set<string>): boolean {
  let shared = 0;
  for (const t of a) if (b.has(t)) shared++;
  return shared >= 2 || (shared === 1 && Math.min(a.size, b.size) <= 3);
}
