// What Hermes' importer of Claude Code sessions requires of a transcript, checked on the transcript
// Baton's Hermes writer stages. Hermes is not on npm, so its importer cannot run here; these checks
// follow NousResearch/hermes-agent `hermes_cli/foreign_sessions.py` (`parse_claude_session`,
// `_message_turn`, `_merge_turns`, `import_foreign_session`, `run_sessions_import`) as read:
// - every line is one JSON object (others are skipped silently, so a bad line would lose a turn);
// - conversational lines have `type` user|assistant and neither `isSidechain` nor `isMeta` true;
// - the first such line has a string `cwd` (the Hermes session's cwd) and `sessionId`;
// - `message.role` is user|assistant and `message.content` a string or blocks of type text;
// - a user text must not start with an injected-context tag (`<system-reminder`, `<environment_context`, …);
// - after merging same-role neighbours the turns alternate starting with a user turn (else Hermes inserts a stub);
// - timestamps are ISO dates with a zone (Hermes ignores zone-less ones);
// - the file is passed as `hermes sessions import --from claude <path>`, which prints
//   "Imported Claude Code session as <id>" (what the writer parses).
import { describe, expect, it } from 'vitest';
import type { ContinuationPlan } from '../native-writer.js';
import { claudeSessionId, claudeTranscript, shieldLeadingTag } from './claude-lines.js';
import { conversationOf } from '../plan-continuation.js';

const WRAPPER = /^<(?:user_instructions|environment_context|recommended_plugins|skills_instructions|permissions[_-]instructions|turn_context|command-name|command-message|local-command-stdout|system-reminder)\b/i;

const plan: ContinuationPlan = {
  source: { sessionId: 'codex:abc', agent: 'codex', nativeId: 'abc', title: 'Parser work', cwd: '/work/p' },
  target: 'hermes',
  key: 'k1',
  title: 'Continued from Codex CLI: Parser work',
  summary: '# Brief\n\n- Decision: tabs only',
  turns: [
    { role: 'user', text: '<system-reminder> is how Claude wraps context; this turn quotes it later', timestamp: '2026-11-01T10:00:00.000Z' },
    { role: 'assistant', text: '[tool call] shell: ls\n\n[tool result] shell: a b', timestamp: '2026-11-01T10:00:05.000Z' },
    { role: 'user', text: 'Now write the exporter', timestamp: '2026-11-01T10:01:00.000Z' },
  ],
  cwd: '/work/p',
  createdAt: '2026-11-02T09:00:00.000Z',
  notes: [],
};

describe("the Claude-format transcript fed to Hermes' importer", () => {
  const id = claudeSessionId(plan);
  const lines = claudeTranscript(plan, id, 'imported').split('\n').filter(Boolean);
  const records = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  const turns = records.filter((r) => (r.type === 'user' || r.type === 'assistant') && !r.isSidechain && !r.isMeta);

  it('is one JSON object a line, with cwd and sessionId on the first turn', () => {
    expect(records.every((r) => r && typeof r === 'object' && !Array.isArray(r))).toBe(true);
    expect(turns[0]).toMatchObject({ cwd: '/work/p', sessionId: id });
  });

  it('carries every planned turn as Hermes reads it: role, text content, alternation from a user turn', () => {
    const read = turns.map((r) => {
      const m = r.message as { role: string; content: string | { type: string; text: string }[] };
      const text = typeof m.content === 'string' ? m.content : m.content.filter((b) => b.type === 'text').map((b) => b.text).join('\n\n');
      return { role: m.role, text };
    });
    expect(read.map((t) => t.role)).toEqual(conversationOf(plan).map((t) => t.role));
    expect(read.map((t) => t.text)).toEqual(conversationOf(plan).map((t) => (t.role === 'user' ? shieldLeadingTag(t.text) : t.text)));
    for (let i = 1; i < read.length; i++) expect(read[i]!.role).not.toBe(read[i - 1]!.role);
    expect(read[0]!.role).toBe('user');
  });

  it('keeps no user turn Hermes would drop as injected context (a leading tag is indented away)', () => {
    const users = turns.filter((r) => r.type === 'user').map((r) => (r.message as { content: string }).content);
    const dropped = users.filter((t) => WRAPPER.test(t.trimStart()));
    expect(dropped).toEqual([]);
  });

  it('stamps every turn with a zoned ISO time', () => {
    for (const r of turns) expect(String(r.timestamp)).toMatch(/^\d{4}-\d{2}-\d{2}T[\d:.]+(Z|[+-]\d{2}:\d{2})$/);
  });
});
