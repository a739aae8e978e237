/**
 * Test support for the JSONL line shortcuts: feeds a transcript's lines to a fresh parser, either
 * all JSON-parsed or with the shortcut's stand-ins where it takes a line, so a test can require
 * both runs to end in exactly the same sessions, messages and parser state.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { AgentId } from '../shared/model.js';
import { RecordSink, type RecordParser, type SessionAgg } from '../electron/core/sources/jsonl/jsonl-session-reader.js';
import type { LineShortcut } from '../electron/core/sources/jsonl/jsonl-tail.js';

/** The shortcut's answer for one line, as the tail reader asks it (line inside a larger buffer). */
export function takeLine(shortcut: LineShortcut, line: string | Buffer): Record<string, unknown> | undefined {
  const b = Buffer.concat([Buffer.from('  '), Buffer.isBuffer(line) ? line : Buffer.from(line), Buffer.from('\n')]);
  return shortcut(b, 2, b.length - 1);
}

export function replayLines<S>(parser: RecordParser<S>, agent: AgentId, file: string, lines: string[], useShortcut: boolean) {
  const sessions: Record<string, SessionAgg> = {};
  const sink = new RecordSink(agent, sessions, new Set());
  const state = parser.init({ key: file, path: file, size: 0, mtimeMs: 0 });
  let standIns = 0;
  let standInBytes = 0;
  lines.forEach((text, i) => {
    const standIn = useShortcut && parser.shortcut ? takeLine(parser.shortcut, text) : undefined;
    if (standIn) {
      standIns++;
      standInBytes += Buffer.byteLength(text);
    }
    parser.handle({ value: standIn ?? (JSON.parse(text) as Record<string, unknown>), line: i + 1 }, state, sink);
  });
  return { sessions, messages: sink.messages, state, resets: sink.resetSessions, standIns, standInBytes };
}

/** A transcript's lines replayed twice by fresh parsers: all parsed, and with the shortcut. */
export function replayBoth<S>(makeParser: () => RecordParser<S>, agent: AgentId, file: string) {
  const lines = fs.readFileSync(file, 'utf8').split('\n').filter((l) => l.length > 0);
  return { lines, full: replayLines(makeParser(), agent, file, lines, false), fast: replayLines(makeParser(), agent, file, lines, true) };
}

/** Every `.jsonl` file below `dir`. */
export function jsonlFilesBelow(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true }) as string[]).filter((f) => f.endsWith('.jsonl')).map((f) => path.join(dir, f));
}
