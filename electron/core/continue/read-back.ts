/**
 * Read-back before anything is put in place: Baton's own reader of the target agent (the adapter
 * the index uses) reads the staged store, and must find the session with every user turn of the
 * plan and as many assistant turns. What Baton cannot read back is not written.
 */
import type { AgentId, Message } from '../../../shared/model.js';
import { createAgentAdapter } from '../sources/local-adapters.js';
import type { ContinuationPlan, StagedSession } from './native-writer.js';
import { conversationOf } from './plan-continuation.js';

export interface ReadBackResult {
  ok: boolean;
  reason: string | null;
  messages: number;
}

/** Collapse whitespace: readers may trim or normalise line ends. */
const norm = (s: string) => s.replace(/\s+/g, ' ').trim();

/** `readerAgent`: whose reader reads the staged files (Hermes' staged transcript is Claude-format). */
export async function readBack(readerAgent: AgentId, staged: StagedSession, plan: ContinuationPlan, sessionNativeId: string): Promise<ReadBackResult> {
  const adapter = createAgentAdapter(readerAgent, staged.readBackRoots);
  const messages: Message[] = [];
  let found = false;
  const id = `${readerAgent}:${sessionNativeId}`;
  for (const unit of await adapter.listUnits()) {
    for await (const batch of adapter.read(unit, { cursor: null, diagnostic: () => {} })) {
      if (batch.sessions.some((s) => s.id === id)) found = true;
      messages.push(...batch.messages.filter((m) => m.sessionId === id));
    }
  }
  if (!found) return { ok: false, reason: `Baton's ${readerAgent} reader does not find session ${sessionNativeId} in what was written`, messages: 0 };
  const texts = (role: 'user' | 'assistant') => messages.filter((m) => m.role === role && m.kind === 'text').map((m) => norm(m.text));
  const users = texts('user');
  const assistants = texts('assistant');
  const expected = conversationOf(plan);
  for (const turn of expected) {
    const want = norm(turn.text);
    const pool = turn.role === 'user' ? users : assistants;
    if (!pool.some((t) => t === want || t.includes(want.slice(0, 400)))) {
      return { ok: false, reason: `Baton's ${readerAgent} reader reads the session back without the ${turn.role} turn "${want.slice(0, 80)}…"`, messages: messages.length };
    }
  }
  return { ok: true, reason: null, messages: messages.length };
}
