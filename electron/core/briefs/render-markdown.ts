/**
 * The Markdown brief, worded for its receiving agent and fitted to a token budget. Trimming takes
 * from the conversation excerpt first (middle, then early, then older recent turns), then from
 * long file lists; the goal, state, decisions and instructions are never cut.
 * Deterministic: the same data gives the same bytes (no clocks, no randomness, stable ordering).
 */
import { AGENT_LABELS } from '../../../shared/model.js';
import type { GitSnapshot } from '../../../shared/api-types.js';
import type { BriefTarget } from '../../../shared/settings.js';
import type { BriefData } from './brief-data.js';
import { clipText, foldToolCalls, toolCallsBetween, type ExcerptMessage } from './excerpt.js';
import { STALENESS_LABELS } from './staleness.js';
import { TARGETS } from './targets.js';
import { countTokens } from './tokens.js';

export interface RenderOptions {
  target: BriefTarget;
  budget: number;
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
  const compose = () => fixed.replace(EXCERPT_PLACEHOLDER, () => renderExcerpt(data, messages, kept));

  // Common case: everything fits, one tokenization.
  let text = compose();
  let tokens = countTokens(text);
  if (tokens <= options.budget) return { text, tokens, excerptTrimmed: 0 };

  const fixedTokens = countTokens(fixed);
  const costs = messages.map((m) => countTokens(renderMessageLine(m)) + 2);
  const order = trimOrder(messages, data.excerpt.sampled);
  let excerptTokens = costs.reduce((a, b) => a + b, 0);
  const MARKER_COST = 20;
  for (const i of order) {
    if (fixedTokens + excerptTokens + MARKER_COST <= options.budget) break;
    kept.delete(i);
    excerptTokens -= costs[i]!;
  }
  if (kept.size === 0 && fixedTokens > options.budget) {
    filesLimit = FILES_SHOWN_WHEN_TIGHT;
    fixed = renderFixed(data, options.target, filesLimit);
  }

  // Exact check: estimates above are per line; fold/omission lines can tip it over.
  text = compose();
  tokens = countTokens(text);
  let next = order.findIndex((i) => kept.has(i));
  while (tokens > options.budget && next >= 0 && next < order.length) {
    kept.delete(order[next]!);
    next++;
    text = compose();
    tokens = countTokens(text);
  }
  return { text, tokens, excerptTrimmed: messages.length - kept.size };
}

/** Indices of excerpt messages in the order they are dropped: middle, early, then oldest recent; the first prompt last. */
function trimOrder(messages: ExcerptMessage[], sampled: boolean): number[] {
  const n = messages.length;
  if (n === 0) return [];
  const idx = messages.map((_, i) => i);
  if (!sampled) {
    // Unsampled: drop from the middle outwards, keeping the opening and the latest turns longest.
    const mid = idx.slice(1).sort((a, b) => Math.abs(a - n / 2) - Math.abs(b - n / 2) || a - b);
    return [...mid, 0];
  }
  const head = idx.filter((i) => i < 10);
  const tail = idx.filter((i) => i >= n - 20 && i >= 10);
  const middle = idx.filter((i) => !head.includes(i) && !tail.includes(i));
  return [...middle, ...head.slice(1).reverse(), ...tail, 0];
}

function renderMessageLine(m: ExcerptMessage): string {
  const who = m.role === 'user' ? 'User' : 'Assistant';
  return `**${who}** (#${m.seq}): ${clipText(m.text)}`;
}

function renderExcerpt(data: BriefData, messages: ExcerptMessage[], kept: Set<number>): string {
  const lines: string[] = [];
  const { total, sampled } = data.excerpt;
  const shown = kept.size;
  if (total === 0) return 'No conversation messages indexed for this session.';
  lines.push(
    sampled || shown < total
      ? `_${shown} of ${total} substantive messages shown (tool output omitted; gaps marked)._`
      : `_All ${total} substantive messages (tool output omitted)._`,
  );
  let prev: ExcerptMessage | null = null;
  const calls = data.toolCalls;
  const leadingGap = messages.find((_, i) => kept.has(i));
  if (leadingGap && leadingGap.pos > 0) lines.push(`[… ${leadingGap.pos} earlier messages omitted …]`);
  messages.forEach((m, i) => {
    if (!kept.has(i)) return;
    if (prev) {
      const between = toolCallsBetween(calls, prev.seq, m.seq);
      const gap = m.pos - prev.pos - 1;
      if (gap > 0) {
        const tools = between.length ? ` and ${between.length} tool call${between.length === 1 ? '' : 's'}` : '';
        lines.push(`[… ${gap} message${gap === 1 ? '' : 's'}${tools} omitted …]`);
      } else if (between.length) lines.push(foldToolCalls(between));
    }
    lines.push(renderMessageLine(m));
    prev = m;
  });
  if (prev) {
    const last = prev as ExcerptMessage;
    const after = toolCallsBetween(calls, last.seq, Number.MAX_SAFE_INTEGER);
    const gap = data.excerpt.texts - last.pos - 1;
    if (gap > 0) lines.push(`[… ${gap} later message${gap === 1 ? '' : 's'} omitted …]`);
    else if (after.length) lines.push(foldToolCalls(after));
  }
  return lines.join('\n\n');
}

function bulletList(items: string[], empty: string): string {
  return items.length ? items.map((i) => `- ${oneBlock(i)}`).join('\n') : empty;
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

  const st = data.state;
  const stateParts: string[] = [];
  if (st.source === 'checkpoint') stateParts.push(`_From the checkpoint of ${data.checkpoint!.createdAt}._`);
  if (st.source === 'last_assistant_message') stateParts.push('_No checkpoint: this is the last substantive assistant message._');
  stateParts.push(st.summary ? (st.source === 'checkpoint' ? st.summary.trim() : quote(clipText(st.summary, 4000))) : 'Unknown: no checkpoint and no assistant reply.');
  if (st.itemsCompleted.length) stateParts.push(`Done:\n${bulletList(st.itemsCompleted, '')}`);
  if (st.nextSteps.length) stateParts.push(`Next steps:\n${st.nextSteps.map((n, i) => `${i + 1}. ${oneBlock(n)}`).join('\n')}`);
  if (data.compactionSummary) {
    stateParts.push(`Earlier in this session (the agent's own summary when it compacted the conversation):\n\n${quote(clipText(data.compactionSummary, 4000))}`);
  }
  out.push(`## Current state and next steps\n\n${stateParts.join('\n\n')}`);

  const decisions = data.decisions.map((d) => (d.source === 'pin' ? `${d.text} _(pinned turn #${d.seq})_` : d.text));
  out.push(`## Settled decisions\n\n${bulletList(decisions, 'None recorded.')}`);

  const open = [...data.open.blockers.map((b) => `Blocker: ${b}`), ...data.open.itemsAdded.map((i) => `Open: ${i}`)];
  out.push(`## Open items and blockers\n\n${bulletList(open, 'None recorded.')}`);

  const fileLines = data.files.map((f) => `- \`${f.path}\` — ${f.action} (${f.tool}${f.times > 1 ? `, ${f.times}×` : ''})`);
  const declared = data.declaredFiles.map((f) => `- \`${f}\` — declared at the checkpoint`);
  const allFiles = [...fileLines, ...declared];
  const shownFiles = allFiles.slice(0, filesLimit);
  const more = allFiles.length - shownFiles.length + (data.filesTotal - data.files.length);
  out.push(
    `## Files touched\n\n${shownFiles.length ? shownFiles.join('\n') + (more > 0 ? `\n- … and ${more} more` : '') : 'No file changes recorded in tool calls.'}`,
  );

  const checks = data.verification.map(
    (v) => `- ${v.kind}: \`${v.command.replace(/`/g, "'")}\` — ${v.outcome}${v.exitCode !== null ? ` (exit ${v.exitCode})` : ''}`,
  );
  out.push(`## Verification\n\n${checks.length ? checks.join('\n') : 'No test, build or lint commands were run in this session.'}`);

  out.push(`## Git\n\n${renderGit(data)}`);
  out.push(`## Conversation excerpt\n\n${EXCERPT_PLACEHOLDER}`);

  const steps = [
    'Read the original goal and the current state above.',
    'Treat the settled decisions as final; do not relitigate them.',
    'Before changing anything, restate your understanding of the current state and your intended next step.',
  ];
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
        const more = d.commitsSince.length - shown.length;
        lines.push(`Commits since the checkpoint (${d.commitsSince.length}):\n${shown.join('\n')}${more > 0 ? `\n  - … and ${more} more` : ''}`);
      }
      if (d.filesChangedSince.length) {
        const shown = d.filesChangedSince.slice(0, 30).map((f) => `  - \`${f}\``);
        const more = d.filesChangedSince.length - shown.length;
        lines.push(`Files changed since the checkpoint (${d.filesChangedSince.length}):\n${shown.join('\n')}${more > 0 ? `\n  - … and ${more} more` : ''}`);
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
