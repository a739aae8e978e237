// The plan of a long session: newest turns verbatim within the budget, starting with a user turn,
// nothing before the source's own compaction summary verbatim, tool calls as labelled text,
// reasoning dropped, secrets redacted, and the whole within half the target's window.
import { describe, expect, it } from 'vitest';
import type { Message, Session } from '../../../shared/model.js';
import type { MessageQuery, TranscriptReader } from '../index/transcript-reader.js';
import { countTokens } from '../briefs/tokens.js';
import { conversationOf, planBudget, planContinuation } from './plan-continuation.js';

function readerOver(session: Session, messages: Message[]): TranscriptReader {
  return {
    getSession: (id) => (id === session.id ? session : null),
    countMessages: () => messages.length,
    getMessages: (_id, q: MessageQuery = {}) => {
      const ordered = q.order === 'desc' ? [...messages].reverse() : messages;
      return ordered.slice(q.offset ?? 0, (q.offset ?? 0) + (q.limit ?? ordered.length));
    },
  };
}

const session = { id: 'codex:s1', agent: 'codex', nativeId: 's1', title: 'Parser', cwd: '/p', firstPrompt: 'start' } as Session;
let seq = 0;
const msg = (role: Message['role'], kind: Message['kind'], text: string, toolName: string | null = null): Message => ({
  sessionId: 'codex:s1', seq: seq++, role, kind, text, toolName, toolCallId: null, isError: false, timestamp: '2026-11-01T10:00:00Z', nativeId: null,
});

describe('planContinuation', () => {
  const filler = 'lorem ipsum dolor sit amet '.repeat(400);
  const messages: Message[] = [msg('user', 'text', 'EARLY turn before compaction'), msg('assistant', 'text', 'early answer')];
  messages.push(msg('system', 'text', `<summary>The agent's own compaction summary: decided tabs. ${'x '.repeat(80)}</summary>`));
  for (let i = 0; i < 60; i++) {
    messages.push(msg('user', 'text', `question ${i} ${filler}`));
    messages.push(msg('assistant', 'thinking', 'secret reasoning'));
    messages.push(msg('assistant', 'tool_call', '{"cmd":"ls"}', 'exec_command'));
    messages.push(msg('tool', 'tool_result', 'a.txt', 'exec_command'));
    messages.push(msg('assistant', 'text', `answer ${i}`));
  }
  messages.push(msg('user', 'text', 'LATEST ask: export token sk-ant-api03-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'));

  it('keeps the newest turns within half a small window and the brief for the rest', async () => {
    const window = 60_000;
    const { plan, tokens } = await planContinuation({ reader: readerOver(session, messages), session, target: 'claude', contextWindow: window, cwd: '/p', now: new Date('2026-11-02T00:00:00Z'), brief: async () => 'BRIEF' });
    expect(tokens).toBeLessThanOrEqual(window / 2);
    expect(plan.turns[0]!.role).toBe('user');
    expect(plan.turns.at(-1)!.text).toMatch(/^LATEST ask/);
    expect(plan.turns.at(-1)!.text).toContain('[REDACTED:');
    expect(plan.turns.length).toBeLessThan(121);
    expect(plan.turns.length).toBeGreaterThan(4);
    const all = plan.turns.map((t) => t.text).join('\n');
    expect(all).not.toContain('EARLY turn');
    expect(all).not.toContain('secret reasoning');
    expect(all).toContain('[tool call] exec_command: {"cmd":"ls"}');
    for (let i = 1; i < plan.turns.length; i++) expect(plan.turns[i]!.role).not.toBe(plan.turns[i - 1]!.role);
    expect(plan.notes.join(' ')).toMatch(/compaction summary/);
    expect(plan.title).toBe('Continued from Codex CLI: Parser');
    expect(conversationOf(plan)[0]!.text).toContain('BRIEF');
    expect(countTokens(plan.turns.map((t) => t.text).join('')) ).toBeLessThanOrEqual(planBudget(window).turns);
  });

  it('gives the same key for the same source state and target, another for another target', async () => {
    const input = { reader: readerOver(session, messages), session, contextWindow: 60_000, cwd: '/p', now: new Date(), brief: async () => 'B' };
    const a = await planContinuation({ ...input, target: 'claude' });
    const b = await planContinuation({ ...input, target: 'claude' });
    const c = await planContinuation({ ...input, target: 'codex' });
    expect(a.plan.key).toBe(b.plan.key);
    expect(c.plan.key).not.toBe(a.plan.key);
  });
});
