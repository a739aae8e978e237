/**
 * Hostile JSONL input through the real JSONL adapters: every bad line becomes a diagnostic naming the
 * file, its 1-based line, its byte offset and the kind of problem (which the index keeps, see
 * read-problems.ts), and everything around it is still read. A line with invalid UTF-8 is kept.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Diagnostic, Message, Session } from '../../../../shared/model.js';
import { makeTempDir } from '../../../../testing/fixture-home.js';
import { createClaudeAdapter } from '../claude/claude-adapter.js';
import { createCodexAdapter } from '../codex/codex-adapter.js';
import { createPiAdapter } from '../pi/pi-adapter.js';
import { createQwenAdapter } from '../qwen/qwen-adapter.js';
import type { JsonValue, ReadBatch, SourceAdapter } from '../types.js';

const SID = '12345678-1234-4234-8234-123456789abc';

async function readAll(adapter: SourceAdapter, cursors = new Map<string, JsonValue>()) {
  const diagnostics: Omit<Diagnostic, 'at'>[] = [];
  const sessions = new Map<string, Session>();
  const messages: Message[] = [];
  const batches: ReadBatch[] = [];
  for (const unit of await adapter.listUnits()) {
    for await (const b of adapter.read(unit, { cursor: cursors.get(unit.key) ?? null, diagnostic: (d) => diagnostics.push(d) })) {
      batches.push(b);
      for (const s of b.sessions) sessions.set(s.id, s);
      messages.push(...b.messages);
      if (b.cursor !== undefined) cursors.set(unit.key, b.cursor);
    }
  }
  return { diagnostics, sessions, messages, batches, cursors };
}

const claudeUser = (text: string) =>
  JSON.stringify({ type: 'user', uuid: `u-${text}`, sessionId: SID, cwd: '/w', timestamp: '2026-01-01T00:00:00.000Z', message: { role: 'user', content: text } });
const qwenUser = (text: string) =>
  JSON.stringify({ uuid: `u-${text}`, parentUuid: null, sessionId: SID, timestamp: '2026-01-01T00:00:00.000Z', type: 'user', provenance: 'real_user', cwd: '/w', version: '0.24.4', message: { role: 'user', parts: [{ text }] } });
const codexUser = (text: string) =>
  JSON.stringify({ timestamp: '2026-01-01T00:00:00.000Z', type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text }] } });

// pi: a v1-style entry (no ids) hangs under the one before, so the prompts form one path.
const piUser = (text: string) =>
  JSON.stringify({ type: 'message', timestamp: '2026-01-01T00:00:00.000Z', message: { role: 'user', content: [{ type: 'text', text }] } });

/** Builds a transcript whose line 2 is `bad`, surrounded by good prompts on lines 1 and 3. */
function hostileFile(user: (t: string) => string, bad: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`${user('before')}\n`), bad, Buffer.from(`\n${user('after')}\n`)]);
}

const CASES: [string, () => Buffer, RegExp, string][] = [
  ['malformed JSON', () => Buffer.from('{"type":"user", "message": {'), /malformed JSON/, 'malformed_lines'],
  ['NUL-filled line', () => Buffer.alloc(300, 0), /NUL/, 'malformed_lines'],
  ['50 MB single line', () => Buffer.concat([Buffer.from('{"type":"user","blob":"'), Buffer.alloc(50 * 1024 * 1024, 0x61), Buffer.from('"}')]), /longer than/, 'line_too_long'],
];

describe.each([
  ['claude', (dir: string) => path.join(dir, 'projects', 'p', `${SID}.jsonl`), claudeUser, (dir: string) => createClaudeAdapter([dir])],
  ['codex', (dir: string) => path.join(dir, 'sessions', '2026', '01', '01', `rollout-2026-01-01T00-00-00-${SID}.jsonl`), codexUser, (dir: string) => createCodexAdapter([dir])],
  ['pi', (dir: string) => path.join(dir, '--w--', `2026-01-01T00-00-00-000Z_${SID}.jsonl`), piUser, (dir: string) => createPiAdapter([dir])],
  ['qwen', (dir: string) => path.join(dir, 'projects', '-w', 'chats', `${SID}.jsonl`), qwenUser, (dir: string) => createQwenAdapter([dir])],
] as const)('%s adapter with hostile lines', (agent, fileIn, user, make) => {
  let tmp: { dir: string; cleanup(): void };
  let file: string;
  beforeEach(() => {
    tmp = makeTempDir('baton-hostile-');
    file = fileIn(tmp.dir);
    fs.mkdirSync(path.dirname(file), { recursive: true });
  });
  afterEach(() => tmp.cleanup());

  it.each(CASES)('%s → diagnostic with file, line and byte offset, the rest is read', async (_name, bad, why, kind) => {
    fs.writeFileSync(file, hostileFile(user, bad()));
    const adapter = make(tmp.dir);
    const { diagnostics, sessions, messages } = await readAll(adapter);
    const offset = Buffer.byteLength(`${user('before')}\n`);
    expect(diagnostics).toEqual([{ file, line: 2, offset, kind, message: expect.stringMatching(why) }]);
    expect(messages.map((m) => m.text)).toEqual(['before', 'after']);
    expect(sessions.get(`${agent}:${SID}`)).toMatchObject({ userTurns: 2, firstPrompt: 'before' });
    expect(adapter.status()).toMatchObject({ skippedLines: 1, diagnostics: [expect.objectContaining({ file, line: 2 })] });
  });

  it('a prompt with invalid UTF-8 is kept, its bad bytes replaced, with a warning (nothing skipped)', async () => {
    // The text may appear more than once in a record (ids made from it): every copy gets the bad bytes.
    const parts = user('caf@@ latte').split('@@').map((p) => Buffer.from(p));
    const bad = Buffer.from([0xc3, 0x28, 0xff]);
    fs.writeFileSync(file, hostileFile(user, Buffer.concat(parts.flatMap((p, i) => (i === 0 ? [p] : [bad, p])))));
    const adapter = make(tmp.dir);
    const { diagnostics, messages } = await readAll(adapter);
    const offset = Buffer.byteLength(`${user('before')}\n`);
    expect(diagnostics).toEqual([{ file, line: 2, offset, kind: 'invalid_utf8', message: expect.stringMatching(/not valid UTF-8; read with the bad bytes replaced/) }]);
    expect(messages.map((m) => m.text)).toEqual(['before', 'caf\uFFFD(\uFFFD latte', 'after']);
    expect(adapter.status()).toMatchObject({ skippedLines: 0 });
  });

  it('a truncated last line is not parsed until it is completed (only the index, by its age, may call it a problem)', async () => {
    const last = user('finished later');
    fs.writeFileSync(file, `${user('before')}\n${last.slice(0, 25)}`);
    const adapter = make(tmp.dir);
    const first = await readAll(adapter);
    const offset = Buffer.byteLength(`${user('before')}\n`);
    expect(first.diagnostics).toEqual([{ file, line: 2, offset, kind: 'unfinished_line', message: expect.stringMatching(/unfinished \(25 bytes/) }]);
    expect(adapter.status()).toMatchObject({ skippedLines: 0, diagnostics: [] });
    expect(first.messages.map((m) => m.text)).toEqual(['before']);
    fs.appendFileSync(file, `${last.slice(25)}\n${user('third')}\n`);
    const second = await readAll(adapter, first.cursors);
    expect(second.diagnostics).toEqual([]);
    expect(second.messages.map((m) => m.text)).toEqual(['finished later', 'third']);
    expect(second.messages.map((m) => m.seq)).toEqual([1, 2]);
  });

  it('an over-long line still being written is skipped across reads without re-reading it', async () => {
    const adapter = make(tmp.dir);
    fs.writeFileSync(file, `${user('before')}\n{"type":"user","blob":"${'b'.repeat(20 * 1024 * 1024)}`);
    const first = await readAll(adapter);
    expect(first.messages.map((m) => m.text)).toEqual(['before']);
    fs.appendFileSync(file, `${'b'.repeat(1024)}"}\n${user('after')}\n`);
    const second = await readAll(adapter, first.cursors);
    // Named by where the line starts, although its start was read by the first pass.
    const offset = Buffer.byteLength(`${user('before')}\n`);
    expect(second.diagnostics).toEqual([{ file, line: 2, offset, kind: 'line_too_long', message: expect.stringMatching(/longer than/) }]);
    expect(second.messages.map((m) => m.text)).toEqual(['after']);
    // Only the newly appended bytes (+ the 4 KiB head check) were read the second time.
    const appended = 1024 + 3 + user('after').length + 1;
    expect(second.batches.reduce((a, b) => a + b.bytesRead, 0)).toBe(appended + 4096);
  });
});
