/**
 * The plan of a continuation: the newest turns verbatim and the handoff brief standing for
 * everything before them, within half the target model's context window (the rest is room to
 * work), counted with the tokenizer the briefs use. The source agent's own compaction summary is
 * not re-summarized: verbatim turns start after it and the brief quotes it. Secrets are redacted
 * with the one redactor, as in briefs.
 */
import { AGENT_LABELS, type AgentId, type Session } from '../../../shared/model.js';
import type { TranscriptReader } from '../index/transcript-reader.js';
import { countTokens, cutToTokens } from '../briefs/tokens.js';
import { redactStrings } from '../redaction/redact.js';
import type { ContinuationPlan, PlannedTurn } from './native-writer.js';
import { continuationKey } from './native-ids.js';
import { newestTurns, turnsFromMessages } from './plan-turns.js';

/** Share of the target's context window the continued conversation may fill. */
export const WINDOW_SHARE = 0.5;
/** Messages read back from the end of a session: far more than half of any window holds as text. */
const MAX_MESSAGES = 4000;

export interface PlanInput {
  reader: TranscriptReader;
  session: Session;
  target: AgentId;
  /** The target model's context window, in tokens. */
  contextWindow: number;
  cwd: string;
  /** The redacted handoff brief of the session rendered for the target within `budget` tokens. */
  brief(budget: number): Promise<string>;
  now: Date;
}

export interface PlanBudget {
  total: number;
  brief: number;
  turns: number;
}

export function planBudget(contextWindow: number): PlanBudget {
  const total = Math.floor(contextWindow * WINDOW_SHARE);
  const brief = Math.max(2000, Math.min(12_000, Math.floor(total * 0.25)));
  // The opening lines around the brief and each turn's framing take a few hundred tokens.
  return { total, brief, turns: Math.max(1000, total - brief - 600) };
}

export function continuedTitle(source: AgentId, title: string | null): string {
  return `Continued from ${AGENT_LABELS[source]}: ${(title ?? 'untitled session').replace(/\s+/g, ' ').trim().slice(0, 100)}`;
}

/**
 * What every writer writes, in order: the opening user message (marked as continued, carrying the
 * brief), a short assistant acknowledgement so turns alternate, then the verbatim turns.
 */
export function conversationOf(plan: ContinuationPlan): PlannedTurn[] {
  const source = `${AGENT_LABELS[plan.source.agent]} session ${plan.source.nativeId}${plan.source.title ? ` ("${plan.source.title}")` : ''}`;
  const opening = [
    `${plan.title}. Baton continued this conversation from ${source}.`,
    plan.turns.length > 0 ? 'The brief below stands for everything before the turns that follow it; those turns are the newest of the source session, verbatim (tool calls shown as text).' : 'The brief below stands for the whole source session.',
    '',
    plan.summary.trim(),
  ].join('\n');
  const ack = 'Understood. I have the brief of the earlier session and continue from where it stands.';
  return [
    { role: 'user', text: opening, timestamp: plan.createdAt },
    { role: 'assistant', text: ack, timestamp: plan.createdAt },
    ...plan.turns,
  ];
}

export async function planContinuation(input: PlanInput): Promise<{ plan: ContinuationPlan; tokens: number; budget: PlanBudget }> {
  const { session, reader } = input;
  const budget = planBudget(input.contextWindow);
  const total = reader.countMessages(session.id, { currentBranch: true });
  const messages = reader.getMessages(session.id, { currentBranch: true, order: 'desc', limit: MAX_MESSAGES }).reverse();
  const lastSeq = messages.length > 0 ? messages[messages.length - 1]!.seq : -1;
  const { turns, flattenedTools, droppedThinking, compactionSeq } = turnsFromMessages(messages);
  const picked = newestTurns(turns, budget.turns, countTokens, cutToTokens, Math.floor(budget.turns / 2));
  const redacted = await redactStrings([...picked.map((t) => t.text), session.title ?? session.firstPrompt?.split('\n')[0] ?? '']);
  const redactedTurns = picked.map((t, i) => ({ ...t, text: redacted.value[i]! }));
  const title = redacted.value[picked.length] || null;
  const summary = await input.brief(budget.brief);
  const notes: string[] = [];
  if (flattenedTools > 0) notes.push(`text-only: ${flattenedTools} tool calls and results flattened to labelled text (a target cannot replay another agent's tools)`);
  if (droppedThinking > 0) notes.push(`${droppedThinking} reasoning blocks dropped`);
  if (compactionSeq !== null) notes.push(`the source's own compaction summary (#${compactionSeq}) is used through the brief; verbatim turns start after it`);
  const omitted = turns.length - picked.length + (total > messages.length ? 1 : 0);
  if (omitted > 0) notes.push(`${turns.length - picked.length} older turns are carried by the brief, not verbatim`);
  const redactions = Object.values(redacted.counts).reduce((a, b) => a + b, 0);
  if (redactions > 0) notes.push(`${redactions} secrets redacted`);
  const plan: ContinuationPlan = {
    source: { sessionId: session.id, agent: session.agent, nativeId: session.nativeId, title, cwd: session.cwd },
    target: input.target,
    key: continuationKey(session.id, lastSeq, input.target),
    title: continuedTitle(session.agent, title),
    summary,
    turns: redactedTurns,
    cwd: input.cwd,
    createdAt: input.now.toISOString(),
    notes,
  };
  const tokens = conversationOf(plan).reduce((n, t) => n + countTokens(t.text), 0);
  return { plan, tokens, budget };
}
