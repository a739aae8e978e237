/**
 * The end of an agent's transcript, read right before the agent compacts it: only the last bytes
 * (a transcript may be hundreds of MB), decoded into the last user request and the last assistant
 * text. Understands Claude Code's records (`{type, message: {role, content}}`) and Codex's rollout
 * records (`{type: "response_item", payload: {type: "message", role, content}}`).
 */
import fs from 'node:fs';

export const TAIL_BYTES = 512 * 1024;

export interface TranscriptTail {
  lastUser: string | null;
  lastAssistant: string | null;
  /** Size of the transcript when read: names this compaction (idempotency). */
  size: number;
}

function textOf(content: unknown): string | null {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return null;
  const parts: string[] = [];
  for (const block of content) {
    if (block && typeof block === 'object') {
      const b = block as { type?: unknown; text?: unknown };
      if (typeof b.text === 'string' && (b.type === 'text' || b.type === 'output_text' || b.type === 'input_text')) parts.push(b.text);
    }
  }
  return parts.length > 0 ? parts.join('\n') : null;
}

function roleAndText(record: unknown): { role: string; text: string } | null {
  if (!record || typeof record !== 'object') return null;
  const r = record as { type?: unknown; message?: { role?: unknown; content?: unknown }; payload?: { type?: unknown; role?: unknown; content?: unknown } };
  const message = r.message ?? (r.type === 'response_item' && r.payload?.type === 'message' ? r.payload : null);
  if (!message || typeof message.role !== 'string') return null;
  const text = textOf(message.content)?.trim();
  if (!text) return null;
  // Codex and Claude put harness text (environment context, command output wrappers) in user
  // messages: those are not what the user asked.
  if (message.role === 'user' && /^<[a-z_-]+>/i.test(text)) return null;
  return { role: message.role, text };
}

export function readTranscriptTail(file: string, maxBytes = TAIL_BYTES): TranscriptTail {
  const fd = fs.openSync(file, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    const start = Math.max(0, size - maxBytes);
    const buffer = Buffer.alloc(size - start);
    fs.readSync(fd, buffer, 0, buffer.length, start);
    let lines = buffer.toString('utf8').split('\n');
    if (start > 0) lines = lines.slice(1); // the first line is cut
    let lastUser: string | null = null;
    let lastAssistant: string | null = null;
    for (const line of lines) {
      if (!line.trim()) continue;
      let record: unknown;
      try {
        record = JSON.parse(line);
      } catch {
        continue;
      }
      const found = roleAndText(record);
      if (found?.role === 'user') lastUser = found.text;
      else if (found?.role === 'assistant') lastAssistant = found.text;
    }
    return { lastUser, lastAssistant, size };
  } finally {
    fs.closeSync(fd);
  }
}
