/**
 * Test support for "continue natively" targets: a ContinuationPlan built by hand (until the planner
 * exists) from a real Claude Code fixture session read with Baton's own Claude reader: its user and
 * assistant text turns verbatim, a summary carrying a planted decision, the session's cwd replaced
 * by a real folder. Also reads a store back with one of Baton's adapters.
 */
import path from 'node:path';
import type { AgentId, Message, Session } from '../shared/model.js';
import type { ContinuationPlan, PlannedTurn } from '../electron/core/continue/native-writer.js';
import type { SourceAdapter } from '../electron/core/sources/types.js';
import { createClaudeAdapter } from '../electron/core/sources/claude/claude-adapter.js';
import { MiniIndex } from './mini-index.js';

/** The fixture session: three prompts in /home/ana/projects/demo-app, the last one below. */
export const SOURCE_NATIVE_ID = 'dbfcac52-ebc4-4aa1-abb1-42da8bf3bc26';
export const LATEST_USER_TURN = 'Thanks! Anything else I should know before committing?';
/** Planted in the summary: the first model request of the target must carry it. */
export const PLANTED_DECISION = 'Decision: keep the trailing exclamation mark in the greeting (marker quillfern-42)';

export async function readStore(adapter: SourceAdapter): Promise<{ sessions: Session[]; messages: Map<string, Message[]> }> {
  const index = new MiniIndex();
  await index.readAll(adapter);
  return { sessions: [...index.sessions.values()], messages: index.messages };
}

/** The plan for continuing the Claude fixture session (under `fixtureHome`) in `target`, in `cwd`. */
export async function planFromClaudeFixture(fixtureHome: string, target: AgentId, cwd: string, createdAt = '2026-11-26T10:00:00.000Z'): Promise<ContinuationPlan> {
  const { sessions, messages } = await readStore(createClaudeAdapter([path.join(fixtureHome, '.claude')]));
  const source = sessions.find((s) => s.nativeId === SOURCE_NATIVE_ID);
  if (!source) throw new Error(`fixture session ${SOURCE_NATIVE_ID} not found`);
  const turns: PlannedTurn[] = [];
  for (const m of messages.get(source.id) ?? []) {
    if (m.kind !== 'text' || (m.role !== 'user' && m.role !== 'assistant') || !m.text.trim()) continue;
    const last = turns[turns.length - 1];
    if (last?.role === m.role) last.text += `\n\n${m.text}`;
    else turns.push({ role: m.role, text: m.text, timestamp: m.timestamp });
  }
  while (turns.length && turns[0]!.role !== 'user') turns.shift();
  return {
    source: { sessionId: source.id, agent: 'claude', nativeId: source.nativeId, title: source.title, cwd: source.cwd },
    target,
    key: `${source.id}#${(messages.get(source.id) ?? []).length - 1}`,
    title: `Continued from Claude Code: ${source.title ?? source.firstPrompt ?? source.nativeId}`.slice(0, 120),
    summary: `## Brief\nGoal: review the demo app before committing.\n${PLANTED_DECISION}\nNext: answer the last question.`,
    turns,
    cwd,
    createdAt,
    notes: ['tool calls flattened to text'],
  };
}
