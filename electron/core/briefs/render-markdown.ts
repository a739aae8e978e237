/**
 * The Markdown brief, worded for its receiving agent and fitted to a token budget. Tokens go by
 * value: the structured sections (goal, state, decisions, rejected alternatives, blockers, next
 * steps) are cut only when they alone exceed the budget (fit-brief.ts, which calls this with data
 * already cut to a character allowance; lists then end with "… N more decisions not shown"); the
 * excerpt gives up assistant chatter first, then the assistant's conclusions, then the user's
 * routine turns, then the user's other words; long file lists last.
 * Deterministic: the same data gives the same bytes (no clocks, no randomness, stable ordering).
 */
import { AGENT_LABELS, type AgentId } from '../../../shared/model.js';
import type { GitSnapshot } from '../../../shared/api-types.js';
import type { BriefTarget } from '../../../shared/settings.js';
import type { BriefData, BriefItem } from './brief-data.js';
import { clipText, foldToolCalls, fullyRead, toolCallsBetween, usersBetween, type ExcerptMessage } from './excerpt.js';
import { STALENESS_LABELS } from './staleness.js';
import { TARGETS } from './targets.js';
import { loadedBy } from './instruction-files.js';
import { countTokens, MAX_CHARS_PER_TOKEN } from './tokens.js';
import { moreLine } from './fit-items.js';
import { labelled, withoutLabel } from './item-label.js';

export interface RenderOptions {
  target: BriefTarget;
  budget: number;
  /**
   * Token counts of excerpt lines, kept across the renders of one brief (fit-brief.ts renders it
   * again with less structured data; its excerpt lines stay the same and are not counted again).
   */
  lineTokens?: Map<string, number>;
}

export interface RenderedBrief {
  text: string;
  tokens: number;
  /** Excerpt messages left out to meet the budget. */
  excerptTrimmed: number;
}

const FILES_SHOWN = 40;
const FILES_SHOWN_WHEN_TIGHT = 15;
const EXCERPT_PLACEHOLDER = '\u0000EXCERPT\u0000';

export function renderMarkdown(data: BriefData, options: RenderOptions): RenderedBrief {
  let filesLimit = FILES_SHOWN;
  let fixed = renderFixed(data, options.target, filesLimit);
  const messages = data.excerpt.messages;
  const kept = new Set(messages.map((_, i) => i));
  const owners = ownerIndex(messages);
  const compose = () => fixed.replace(EXCERPT_PLACEHOLDER, () => renderExcerpt(data, messages, visible(messages, kept, owners)));

  // Common case: everything fits, one tokenization. Text longer than the budget's most characters
  // (MAX_CHARS_PER_TOKEN each) cannot fit: it is not tokenized only to learn that.
  let text = compose();
  let tokens = text.length > options.budget * MAX_CHARS_PER_TOKEN ? Number.POSITIVE_INFINITY : countTokens(text);
  if (tokens <= options.budget) return { text, tokens, excerptTrimmed: 0 };

  const fixedTokens = countTokens(fixed);
  if (fixedTokens >= options.budget) {
    // Not even the structured sections fit: no excerpt, and no need to weigh each message.
    kept.clear();
    if (fixedTokens > options.budget) fixed = renderFixed(data, options.target, FILES_SHOWN_WHEN_TIGHT);
    text = compose();
    return { text, tokens: countTokens(text), excerptTrimmed: messages.length };
  }
  // Each shown message may bring a gap line ("[… 3 user messages and 2 tool calls omitted …]").
  const GAP_COST = 16;
  const costs = messages.map((m) => lineTokens(renderMessageLine(m), options.lineTokens) + 2 + GAP_COST);
  const order = dropOrder(data);
  let excerptTokens = costs.reduce((a, b) => a + b, 0);
  const MARKER_COST = 20;
  let next = 0;
  for (; next < order.length; next++) {
    if (fixedTokens + excerptTokens + MARKER_COST <= options.budget) break;
    kept.delete(order[next]!);
    excerptTokens -= costs[order[next]!]!;
  }
  if (kept.size === 0 && fixedTokens > options.budget) {
    filesLimit = FILES_SHOWN_WHEN_TIGHT;
    fixed = renderFixed(data, options.target, filesLimit);
  }

  // Exact check: estimates above are per line; drop at least the overshoot's worth per round.
  text = compose();
  tokens = countTokens(text);
  while (tokens > options.budget && next < order.length) {
    let freed = 0;
    while (next < order.length && freed < tokens - options.budget) {
      kept.delete(order[next]!);
      freed += costs[order[next]!]! - GAP_COST;
      next++;
    }
    text = compose();
    tokens = countTokens(text);
  }
  return { text, tokens, excerptTrimmed: messages.length - visible(messages, kept, owners).size };
}

function lineTokens(line: string, known: Map<string, number> | undefined): number {
  let n = known?.get(line);
  if (n === undefined) {
    n = countTokens(line);
    known?.set(line, n);
  }
  return n;
}

/** Replies that only acknowledge, and user turns that only say "go on": folded first. */
const ACK = /^\s*(?:ok(?:ay)?|sure|noted|got it|understood|will do|thanks|thank you|great|alright|right|yes|done)\b[^\n]{0,80}$/i;
const ROUTINE = /^\s*(?:ok(?:ay)?|thanks|thank you|great|good|looks good|lgtm|continue|go on|go ahead|proceed|yes|yep|sure|nice|perfect|cool|carry on|keep going)\b/i;

/** For each assistant message, the index of the user message it answers (-1: none before it). */
function ownerIndex(messages: ExcerptMessage[]): number[] {
  let owner = -1;
  return messages.map((m, i) => {
    if (m.role === 'user') {
      owner = i;
      return i;
    }
    return owner;
  });
}

/** Kept messages minus replies whose user message was dropped: never an acknowledgement without what it acknowledges. */
function visible(messages: ExcerptMessage[], kept: Set<number>, owners: number[]): Set<number> {
  const out = new Set<number>();
  for (const i of kept) {
    const owner = owners[i]!;
    if (messages[i]!.role === 'assistant' && owner >= 0 && !kept.has(owner)) continue;
    out.add(i);
  }
  return out;
}

/**
 * Indices of excerpt messages in the order they are dropped, by value: assistant chatter and
 * messages marked as history, then the assistant's conclusions of each turn, then routine user
 * turns, then the user's other messages, then those the structured sections cite; the last
 * exchange and the first prompt last. Oldest first within each tier.
 */
function dropOrder(data: BriefData): number[] {
  const messages = data.excerpt.messages;
  const n = messages.length;
  if (n === 0) return [];
  const cited = new Set<number>();
  const items = [...data.decisions, ...data.rejected, ...data.open.blockers, ...data.state.nextSteps, ...data.state.itemsCompleted];
  for (const item of items) if (item.seq !== null) cited.add(item.seq);
  let firstUser = -1;
  let lastUser = -1;
  messages.forEach((m, i) => {
    if (m.role !== 'user') return;
    if (firstUser < 0) firstUser = i;
    lastUser = i;
  });
  const finalReply = messages[n - 1]!.role === 'assistant' && n - 1 > lastUser ? n - 1 : -1;
  const tier = (m: ExcerptMessage, i: number): number => {
    if (i === firstUser) return 7;
    if (i === lastUser) return 6;
    if (i === finalReply) return 5;
    if (m.role === 'assistant') {
      const conclusion = i === n - 1 || messages[i + 1]!.role === 'user';
      if (m.note || ACK.test(m.text) || !conclusion) return 0;
      return 1;
    }
    if (m.note) return 1;
    if (cited.has(m.seq)) return 4;
    if (ROUTINE.test(m.text) && m.text.length < 160) return 2;
    return 3;
  };
  const tiers = messages.map((m, i) => tier(m, i));
  return messages.map((_, i) => i).sort((a, b) => tiers[a]! - tiers[b]! || a - b);
}

function renderMessageLine(m: ExcerptMessage): string {
  const who = m.role === 'user' ? 'User' : 'Assistant';
  return `**${who}** (#${m.seq})${m.note ? ` _[${m.note}]_` : ''}: ${escapeHeadings(clipText(m.text))}`;
}

/**
 * A quoted message's own Markdown headings ("## Task" in a subagent's prompt) would read as the
 * brief's sections: they are escaped to plain text. Lines inside code fences stay as written.
 */
export function escapeHeadings(text: string): string {
  let fenced = false;
  return text
    .split('\n')
    .map((line) => {
      if (/^ {0,3}(```|~~~)/.test(line)) fenced = !fenced;
      return !fenced && /^ {0,3}#{1,6}(\s|$)/.test(line) ? line.replace('#', '\\#') : line;
    })
    .join('\n');
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * The line standing for what lies between two shown messages (indices `from` < `to`, every
 * candidate between them omitted): "[… 3 user messages, assistant replies and 12 tool calls
 * omitted …]", or the folded tool calls when only tools lie between.
 */
function gapLine(data: BriefData, userPrefix: number[], from: number, to: number): string | null {
  const messages = data.excerpt.messages;
  const afterSeq = from >= 0 ? messages[from]!.seq : -1;
  const beforeSeq = to < messages.length ? messages[to]!.seq : Number.MAX_SAFE_INTEGER;
  const offered = Math.max(0, to - from - 1);
  const offeredUsers = userPrefix[to]! - userPrefix[from + 1]!;
  const assistant = offered - offeredUsers;
  const users = usersBetween(data.excerpt, afterSeq, beforeSeq);
  const between = users + assistant;
  const unread = !fullyRead(data.excerpt, afterSeq, beforeSeq);
  const tools = toolCallsBetween(data.toolCalls, afterSeq, beforeSeq);
  if (!between && !unread) return tools.length ? foldToolCalls(tools) : null;
  const parts: string[] = [];
  if (users) parts.push(plural(users, 'user message'));
  if (assistant && !unread) parts.push(plural(assistant, 'assistant message'));
  if (unread) parts.push('assistant replies');
  if (tools.length) parts.push(plural(tools.length, 'tool call'));
  const list = parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}` : parts[0]!;
  return `[… ${list} omitted${to >= messages.length ? ' at the end' : ''} …]`;
}

function renderExcerpt(data: BriefData, messages: ExcerptMessage[], shown: Set<number>): string {
  const lines: string[] = [];
  const { total } = data.excerpt;
  if (total === 0) return 'No conversation messages indexed for this session.';
  lines.push(
    shown.size < total
      ? `_${shown.size} of ${total} substantive messages shown (tool output omitted; gaps marked)._`
      : `_All ${total} substantive messages (tool output omitted)._`,
  );
  const userPrefix = [0];
  messages.forEach((m, i) => userPrefix.push(userPrefix[i]! + (m.role === 'user' ? 1 : 0)));
  let prev = -1;
  messages.forEach((m, i) => {
    if (!shown.has(i)) return;
    const gap = gapLine(data, userPrefix, prev, i);
    if (gap) lines.push(gap);
    lines.push(renderMessageLine(m));
    prev = i;
  });
  const tail = gapLine(data, userPrefix, prev, messages.length);
  if (tail) lines.push(tail);
  return lines.join('\n\n');
}

function bulletList(items: string[], empty: string, omitted = 0, noun = 'items'): string {
  const lines = items.map((i) => `- ${oneBlock(i)}`);
  if (omitted > 0) lines.push(`- ${moreLine(omitted, noun)}`);
  return lines.length ? lines.join('\n') : empty;
}

/** Keeps multi-line list items inside their bullet. */
function oneBlock(text: string): string {
  return text.trim().replace(/\n+/g, '\n  ');
}

function describeSnapshot(s: GitSnapshot): string {
  if (!s.isRepo || s.error) return s.error ?? 'not a git repository';
  const head = s.head ? `HEAD \`${s.head.slice(0, 12)}\`${s.headSubject ? ` "${s.headSubject}"` : ''}` : 'no commits yet';
  const upstream = s.upstream ? `, ${s.ahead} ahead / ${s.behind} behind \`${s.upstream}\`` : '';
  const counts = `${s.staged.length} staged, ${s.unstaged.length} unstaged, ${s.untracked.length} untracked`;
  return `branch \`${s.branch ?? '(detached)'}\`, ${head}${upstream}; ${counts}`;
}

function renderFixed(data: BriefData, target: BriefTarget, filesLimit: number): string {
  const s = data.session;
  const profile = TARGETS[target];
  const out: string[] = [];
  const title = s.title ?? (s.firstPrompt ? clipText(s.firstPrompt.split('\n')[0] ?? '', 80) : s.nativeId);
  out.push(`# Handoff brief: ${title}`);
  const header = [
    `- Agent: ${AGENT_LABELS[s.agent]} (session \`${s.id}\`)`,
    `- Project: ${s.cwd ? `\`${s.cwd}\`` : 'unknown'}`,
    `- Branch: ${s.gitBranch ? `\`${s.gitBranch}\`` : 'none recorded'}`,
    `- Model: ${s.model ?? 'unknown'}`,
    `- Started: ${s.startedAt ?? 'unknown'}; last active: ${s.updatedAt ?? 'unknown'}`,
    `- Messages: ${s.messageCount} (${s.userTurns} user prompt${s.userTurns === 1 ? '' : 's'})`,
    data.checkpoint
      ? `- Latest checkpoint: ${data.checkpoint.createdAt}, ${STALENESS_LABELS[data.staleness!]}`
      : '- Latest checkpoint: none (state below is from the transcript)',
  ];
  // pi: a `--fork` names its source; `/tree` leaves other branches in the transcript.
  if (s.parentId && s.agent === 'pi') header.push(`- Forked from: session \`${s.parentId}\``);
  const offPath = (s.otherBranchSeqs ?? []).reduce((n, [a, b]) => n + b - a + 1, 0);
  if (offPath > 0) header.push(`- Branches: this brief follows the current conversation; ${offPath} message${offPath === 1 ? '' : 's'} on abandoned branches left out`);
  out.push(header.join('\n'));

  out.push(`## Original goal\n\n${data.goal ? quote(data.goal) : 'No user prompt was recorded.'}`);

  out.push(`## Current state and next steps\n\n${renderState(data)}`);

  const left = data.omitted;
  out.push(`## Settled decisions\n\n${bulletList(data.decisions.map((d) => `${withoutLabel('Decision', d.text)}${itemRef(d)}`), 'None recorded.', left.decisions, 'decisions')}`);
  out.push(`## Rejected alternatives\n\n${bulletList(data.rejected.map((d) => `${withoutLabel('Rejected', d.text)}${itemRef(d)}`), 'None recorded.', left.rejected, 'rejected alternatives')}`);

  const open = [...data.open.blockers.map((b) => `${labelled('Blocker', b.text)}${itemRef(b)}`), ...data.open.itemsAdded.map((i) => `${labelled('Open', i.text)}${itemRef(i)}`)];
  const openLeft = [left.blockers ? moreLine(left.blockers, 'blockers') : '', left.itemsAdded ? moreLine(left.itemsAdded, 'open items') : ''].filter(Boolean);
  out.push(`## Open items and blockers\n\n${bulletList([...open, ...openLeft], 'None recorded.')}`);

  const fileLines = data.files.map((f) => `- \`${f.path}\` — ${f.action} (${f.tool}${f.times > 1 ? `, ${f.times}×` : ''}, #${f.seq})`);
  const declared = data.declaredFiles.map((f) => `- \`${f}\` — declared at the checkpoint`);
  const allFiles = [...fileLines, ...declared];
  const shownFiles = allFiles.slice(0, filesLimit);
  const more = allFiles.length - shownFiles.length + (data.filesTotal - data.files.length) + (data.omitted.files ?? 0);
  out.push(
    `## Files touched\n\n${shownFiles.length ? shownFiles.join('\n') + (more > 0 ? `\n- … and ${more} more` : '') : 'No file changes recorded in tool calls.'}`,
  );

  const checks = data.verification.map(
    (v) =>
      `- ${v.kind}: \`${v.command.replace(/`/g, "'")}\` — ${v.outcome}${v.exitCode !== null ? ` (exit ${v.exitCode})` : ''} _(#${v.seq}${v.failedBefore !== null ? `; an earlier run failed at #${v.failedBefore}, now history` : ''})_`,
  );
  if (data.omitted.verification) checks.push(`- ${moreLine(data.omitted.verification, 'verification runs')}`);
  out.push(`## Verification\n\n${checks.length ? checks.join('\n') : 'No test, build or lint commands were run in this session.'}`);

  out.push(`## Git\n\n${renderGit(data)}`);
  out.push(`## Conversation excerpt\n\n${EXCERPT_PLACEHOLDER}`);

  const steps = [
    'Read the original goal and the current state above.',
    'Treat the settled decisions as final; do not relitigate them.',
    ...(data.rejected.length ? ['Do not bring back the rejected alternatives.'] : []),
    'Before changing anything, restate your understanding of the current state and your intended next step.',
  ];
  const instructions = instructionStep(s.agent, target, data.instructionFiles);
  if (instructions) steps.push(instructions);
  if (data.files.length || data.declaredFiles.length) steps.push(`Before editing, ${profile.read} the files touched; ${profile.edit}.`);
  if (data.verification.length) steps.push(`Re-check the verification commands (${profile.shell}) before relying on their results.`);
  if (data.git.drift && (data.git.drift.commitsSince.length || data.git.drift.filesChangedSince.length || data.git.drift.branchSwitched)) {
    steps.push('The repository changed since the checkpoint (see Git): reconcile that first.');
  }
  if (data.staleness && data.staleness !== 'fresh') steps.push(`This checkpoint is ${STALENESS_LABELS[data.staleness]}.`);
  const who = target === 'generic' ? 'the receiving agent' : profile.label;
  out.push(`## Instructions for ${who}\n\n${steps.map((x, i) => `${i + 1}. ${x}`).join('\n')}`);
  return out.join('\n\n') + '\n';
}

/**
 * The project's instruction files the source agent followed and the target does not load by itself
 * (read them first), and the ones the target loads anyway (nothing to do).
 */
function instructionStep(source: AgentId, target: BriefTarget, present: string[]): string | null {
  if (!present.length) return null;
  const code = (names: string[]) => names.map((n) => `\`${n}\``).join(', ');
  const followed = loadedBy(source, present);
  if (target === 'generic') {
    const read = followed.length ? followed : present;
    return `Read the project's instruction files first: ${code(read)}${followed.length ? ` (${AGENT_LABELS[source]} followed ${followed.length === 1 ? 'it' : 'them'} in this session)` : ''}.`;
  }
  const loaded = loadedBy(target, present);
  const missing = followed.filter((f) => !loaded.includes(f));
  const parts: string[] = [];
  if (missing.length) {
    parts.push(`Read ${code(missing)} first: ${AGENT_LABELS[source]} followed ${missing.length === 1 ? 'it' : 'them'} as project instructions in this session, and ${TARGETS[target].label} does not load ${missing.length === 1 ? 'it' : 'them'} by itself.`);
  }
  if (loaded.length) parts.push(`${TARGETS[target].label} loads ${code(loaded)} here by itself.`);
  return parts.length ? parts.join(' ') : null;
}

/** Where an item came from: its message, and what it corrects; `#seq` points into the transcript. */
function itemRef(item: BriefItem): string {
  if (item.source === 'pin') return ` _(pinned turn #${item.seq})_`;
  if (item.seq === null) return '';
  const from = item.source === 'todo' ? "agent's todo list " : item.source === 'plan' ? "agent's plan " : item.source === 'summary' ? 'compaction summary ' : '';
  const corrects = item.corrects.length ? `; corrects ${item.corrects.map((c) => `#${c}`).join(', ')}` : '';
  return ` _(${from}#${item.seq}${corrects})_`;
}

const STATE_CLIP_CHARS = 1500;

/** Long code blocks (command output the agent quoted) shrink to their first lines: the state is not a log. */
function foldCode(text: string): string {
  return text.replace(/```[^\n]*\n([\s\S]*?)```/g, (block, body: string) => {
    const lines = body.split('\n');
    if (lines.length <= 8) return block;
    return `${block.slice(0, block.indexOf('\n') + 1)}${lines.slice(0, 6).join('\n')}\n[… ${lines.length - 6} more lines]\n\`\`\``;
  });
}

function renderState(data: BriefData): string {
  const st = data.state;
  const parts: string[] = [];
  if (st.source === 'checkpoint') {
    parts.push(`_From the checkpoint of ${data.checkpoint!.createdAt}._`);
    parts.push(st.summary ? st.summary.trim() : 'The checkpoint gave no summary.');
  } else parts.push('_No checkpoint: where the work stands, from the transcript._');
  const facts: string[] = [];
  if (st.limitStop) facts.push(limitStopLine(st.limitStop));
  if (st.lastRequest) facts.push(`Last request (#${st.lastRequest.seq}): ${clipText(st.lastRequest.text.replace(/\s+/g, ' '), 300)}`);
  const latest = [...data.verification].sort((a, b) => b.seq - a.seq)[0];
  if (latest) {
    const history = latest.failedBefore !== null ? `; it had failed at #${latest.failedBefore}` : '';
    facts.push(`Latest verification: \`${latest.command.replace(/`/g, "'")}\` ${latest.outcome} (#${latest.seq}${history})`);
  }
  if (st.pendingFiles.length) {
    const files = st.pendingFiles.map((f) => `\`${f}\``).join(', ');
    facts.push(st.pendingSince === 'passing_check' ? `Changed since the last passing check: ${files}` : `Latest changes (no passing check yet): ${files}`);
  } else if (st.pendingSince === 'passing_check') facts.push('No file changed since the last passing check.');
  if (facts.length) parts.push(facts.map((f) => `- ${f}`).join('\n'));
  if (st.source === 'last_assistant_message' && st.summary) {
    parts.push(`Last assistant conclusion (#${st.summarySeq}):\n\n${quote(clipText(foldCode(st.summary), STATE_CLIP_CHARS))}`);
  } else if (st.source === 'none') parts.push('Unknown: no checkpoint and no assistant reply.');
  if (data.compactionSummary) {
    parts.push(`Earlier in this session (the agent's own summary when it compacted the conversation):\n\n${quote(clipText(data.compactionSummary, STATE_CLIP_CHARS))}`);
  }
  const left = data.omitted;
  if (st.itemsCompleted.length) parts.push(`Done:\n${bulletList(st.itemsCompleted.map((i) => `${i.text}${itemRef(i)}`), '', left.itemsCompleted, 'done items')}`);
  if (st.nextSteps.length) {
    const more = left.nextSteps ? `\n- ${moreLine(left.nextSteps, 'next steps')}` : '';
    parts.push(`Next steps:\n${st.nextSteps.map((n, i) => `${i + 1}. ${oneBlock(n.text)}${itemRef(n)}`).join('\n')}${more}`);
  }
  return parts.join('\n\n');
}

const LIMIT_WORDS = { usage_limit: 'its usage limit', rate_limit: 'its rate limit', quota: 'its quota' } as const;

/** "The session stopped on its usage limit at 2026-11-27 05:25 UTC (resets 08:25 UTC)." */
export function limitStopLine(stop: NonNullable<BriefData['state']['limitStop']>): string {
  const when = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;
  const at = stop.at ? ` at ${when(stop.at)}` : '';
  const resets = stop.resetsAt ? ` (resets ${when(stop.resetsAt)})` : ' (reset time not recorded)';
  return `The session stopped on ${LIMIT_WORDS[stop.kind]}${at}${resets}: its last request was refused, so the work above is where it was left.`;
}

function renderGit(data: BriefData): string {
  const lines: string[] = [];
  const at = data.git.atCheckpoint;
  if (at) lines.push(`At the checkpoint: ${describeSnapshot(at)}.`);
  else {
    const s = data.session;
    lines.push(
      `No checkpoint snapshot. The agent recorded branch ${s.gitBranch ? `\`${s.gitBranch}\`` : 'none'}${s.gitCommit ? ` at \`${s.gitCommit.slice(0, 12)}\`` : ''}.`,
    );
  }
  const d = data.git.drift;
  if (d) {
    if (d.error) lines.push(`Now: ${d.error}.`);
    else {
      if (d.now) lines.push(`Now: ${describeSnapshot(d.now)}.`);
      if (d.branchSwitched) lines.push(`Branch switched: \`${d.branchSwitched.from ?? '(detached)'}\` → \`${d.branchSwitched.to ?? '(detached)'}\`.`);
      if (d.commitsSince.length) {
        const shown = d.commitsSince.slice(0, 10).map((c) => `  - \`${c.hash.slice(0, 12)}\` ${c.subject}`);
        const total = d.commitsTotal ?? d.commitsSince.length;
        const more = total - shown.length;
        lines.push(`Commits since the checkpoint (${total}):\n${shown.join('\n')}${more > 0 ? `\n  - … and ${more} more` : ''}`);
      }
      if (d.filesChangedSince.length) {
        const shown = d.filesChangedSince.slice(0, 30).map((f) => `  - \`${f}\``);
        const total = d.filesChangedTotal ?? d.filesChangedSince.length;
        const more = total - shown.length;
        lines.push(`Files changed since the checkpoint (${total}):\n${shown.join('\n')}${more > 0 ? `\n  - … and ${more} more` : ''}`);
      }
      if (!d.branchSwitched && !d.commitsSince.length && !d.filesChangedSince.length) {
        lines.push(d.workTreeChanged ? 'Work-tree status changed since the checkpoint.' : 'No drift since the checkpoint.');
      }
    }
  }
  return lines.join('\n\n');
}

function quote(text: string): string {
  return text
    .trim()
    .split('\n')
    .map((l) => (l ? `> ${l}` : '>'))
    .join('\n');
}
