/**
 * A planned conversation as Claude Code transcript lines (the de-facto interchange format: Claude
 * resumes it, Hermes' importer reads it). Each line carries what Claude Code checks on resume: a
 * uuid/parentUuid chain, `sessionId` = the file's stem, `cwd`, `userType`, `entrypoint: "cli"` (any
 * `sdk-*` entrypoint hides the session from the `claude --resume` picker), and on assistant lines the
 * full API envelope (id, type, model, stop_reason, stop_sequence, usage); without it resume fails.
 * A `custom-title` line names the session in the picker. Text only.
 */
import type { ContinuationPlan } from '../native-writer.js';
import { hexFrom, uuidFrom } from '../native-ids.js';
import { conversationOf } from '../plan-continuation.js';

/** The `version` Claude Code stamps on lines; not validated on resume, so it names the writer. */
export const CLAUDE_LINE_VERSION = '2.1.330';

/**
 * A user turn that starts with a tag (`<system-reminder>`, `<environment_context>`, …) reads as
 * injected context to Claude Code and to Hermes' importer, which drops it: a visible marker keeps
 * it a typed turn.
 */
export function shieldLeadingTag(text: string): string {
  return /^\s*<[A-Za-z]/.test(text) ? `[quoted] ${text}` : text;
}

export function claudeSessionId(plan: ContinuationPlan): string {
  return uuidFrom(plan.key, 'claude-session');
}

export function claudeTranscript(plan: ContinuationPlan, sessionId: string, model: string): string {
  const lines: string[] = [];
  let parent: string | null = null;
  const turns = conversationOf(plan);
  turns.forEach((turn, i) => {
    const uuid = uuidFrom(plan.key, `claude-line-${i}`);
    const base = {
      parentUuid: parent,
      isSidechain: false,
      userType: 'external',
      entrypoint: 'cli',
      cwd: plan.cwd,
      sessionId,
      version: CLAUDE_LINE_VERSION,
      type: turn.role,
      uuid,
      timestamp: turn.timestamp ?? plan.createdAt,
    };
    const message =
      turn.role === 'user'
        ? { role: 'user', content: shieldLeadingTag(turn.text) }
        : {
            id: `msg_01${hexFrom(plan.key, `claude-msg-${i}`, 22)}`,
            type: 'message',
            role: 'assistant',
            model,
            content: [{ type: 'text', text: turn.text }],
            stop_reason: 'end_turn',
            stop_sequence: null,
            usage: { input_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 0 },
          };
    lines.push(JSON.stringify({ ...base, message }));
    parent = uuid;
  });
  lines.push(JSON.stringify({ type: 'custom-title', customTitle: plan.title, sessionId }));
  // Claude appends to the file on resume: the last line must end with a newline.
  return `${lines.join('\n')}\n`;
}

/** Claude Code's project folder name for a cwd: every character but ASCII letters and digits → '-'. */
export function claudeProjectDir(cwd: string): string {
  const encoded = cwd.replace(/[^a-zA-Z0-9]/g, '-');
  // Claude shortens longer names with a hash Baton does not reproduce: refuse rather than guess.
  if (encoded.length > 200) throw new Error(`the folder path is too long for Claude Code's project folder naming (${encoded.length} > 200 characters)`);
  return encoded;
}
