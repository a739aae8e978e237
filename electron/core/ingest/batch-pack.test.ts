import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Message } from '../../../shared/model.js';
import { makeFixtureHome, type FixtureHome } from '../../../testing/fixture-home.js';
import { packBatch, unpackBatch, type PackedBatch } from './batch-pack.js';
import { withIndexForms, type IndexBatch } from '../index/index-writer.js';
import { fixtureAdapters } from '../../../testing/index-support.js';

let home: FixtureHome;
let batches: IndexBatch[];

beforeAll(async () => {
  home = makeFixtureHome();
  batches = [];
  for (const adapter of fixtureAdapters(home.env)) {
    for (const unit of await adapter.listUnits()) {
      for await (const batch of adapter.read(unit, { cursor: null, diagnostic: () => {} })) batches.push(withIndexForms(batch));
    }
  }
});

afterAll(() => home.cleanup());

/** Posts `value` through a real MessageChannel (the same structured clone a worker's postMessage does). */
function throughChannel<T>(value: T, transfer: ArrayBuffer[]): Promise<T> {
  const { port1, port2 } = new MessageChannel();
  return new Promise<T>((resolve) => {
    (port2 as MessagePort).once('message', (m: T) => {
      port1.close();
      port2.close();
      resolve(m);
    });
    port1.postMessage(value, transfer);
  });
}

/** An unpacked batch as plain data, its cursor parsed, and checks that the JSON it carries is the cursor's. */
function plain(b: IndexBatch): IndexBatch {
  const { cursorJson, ...rest } = b;
  expect(cursorJson).toBe(rest.cursor === undefined ? undefined : JSON.stringify(rest.cursor));
  return rest;
}

function message(over: Partial<Message>): Message {
  return { sessionId: 'claude:a', seq: 0, role: 'user', kind: 'text', text: 'hi', toolName: null, toolCallId: null, isError: false, timestamp: null, nativeId: null, ...over };
}

describe('packed read batches', () => {
  it('carry every fixture batch of all four agents across a thread boundary unchanged', async () => {
    expect(new Set(batches.flatMap((b) => b.messages.map((m) => m.sessionId.split(':')[0]))).size).toBe(fixtureAdapters(home.env).length);
    for (const batch of batches) {
      const { packed, transfer } = packBatch(batch);
      const received = await throughChannel<PackedBatch>(packed, transfer);
      expect(plain(unpackBatch(received))).toEqual(batch);
    }
  });

  it('hands the typed columns over instead of copying them', () => {
    const batch = batches.find((b) => b.messages.length > 10)!;
    const { packed, transfer } = packBatch(batch);
    expect(transfer).toHaveLength(5);
    const { port1, port2 } = new MessageChannel();
    port1.postMessage(packed, transfer);
    port1.close();
    port2.close();
    expect(packed.messages.seq.byteLength).toBe(0); // detached: moved, not copied
  });

  it('keeps every role, kind, null and error flag, and a batch without FTS texts stays without', () => {
    const messages: Message[] = [];
    for (const role of ['user', 'assistant', 'tool', 'system'] as const) {
      for (const kind of ['text', 'thinking', 'tool_call', 'tool_result'] as const) {
        messages.push(message({ sessionId: `codex:${role}`, seq: messages.length, role, kind, isError: kind === 'tool_result', toolName: kind === 'tool_call' ? 'Bash' : null, timestamp: '2026-11-24T00:00:00.000Z', nativeId: `n${messages.length}` }));
      }
    }
    // Empty short fields stay empty strings, not nulls, and non-Latin-1 ones cross whole.
    messages.push(message({ seq: messages.length, toolName: '', toolCallId: 'call_é✓', timestamp: '', nativeId: '日本語' }));
    const batch: IndexBatch = { sessions: [], messages, resetSessions: ['codex:x'], goneSessions: ['codex:y'], cursor: { offset: 7 }, bytesRead: 123 };
    const round = unpackBatch(packBatch(batch).packed);
    expect(plain(round)).toEqual(batch);
    expect('indexForms' in round).toBe(false);
    expect(unpackBatch(packBatch({ ...batch, messages: [] }).packed).messages).toEqual([]);
    // The cursor is parsed once, on demand, and the same object comes back each time.
    expect(round.cursor).toBe(round.cursor);
    expect(unpackBatch(packBatch({ ...batch, cursor: null }).packed).cursor).toBeNull();
    // A batch that leaves the saved cursor as it is crosses without one.
    const { cursor: _, ...without } = batch;
    const bare = unpackBatch(packBatch(without).packed);
    expect('cursor' in bare || 'cursorJson' in bare).toBe(false);
  });

  it('sends a text once when it is also its FTS text, and the writer gets both back', async () => {
    const messages = [message({ seq: 0, text: 'plain words' }), message({ seq: 1, text: 'call parseConfig' }), message({ seq: 2, kind: 'thinking', text: 'hmm' })];
    const batch = withIndexForms({ sessions: [], messages, resetSessions: [], goneSessions: [], cursor: null, bytesRead: 0 });
    expect(batch.indexForms).toEqual(['plain words', 'call parseConfig\nparse config', null]);
    const { packed, transfer } = packBatch(batch);
    // Only the form that differs from its text travels as a string of its own.
    expect(packed.messages.indexForms).toEqual([null, 'call parseConfig\nparse config', null]);
    const round = unpackBatch(await throughChannel<PackedBatch>(packed, transfer));
    expect(round.indexForms).toEqual(batch.indexForms);
  });

  it('refuses a message whose role or kind it cannot encode, rather than storing a wrong one', () => {
    const bad = message({ role: 'robot' as Message['role'] });
    expect(() => packBatch({ sessions: [], messages: [bad], resetSessions: [], goneSessions: [], cursor: null, bytesRead: 0 })).toThrow(/role robot/);
  });
});
