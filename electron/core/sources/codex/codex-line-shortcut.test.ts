import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeFixtureHome, type FixtureHome } from '../../../../testing/fixture-home.js';
import { jsonlFilesBelow, replayBoth, takeLine } from '../../../../testing/shortcut-replay.js';
import { CodexParser, EVENT_TYPES_READ, RECORD_TYPES_READ } from './codex-records.js';

const shortcut = new CodexParser(() => ({})).shortcut;
const take = (line: string) => takeLine(shortcut, line);


describe('Codex line shortcut', () => {
  let fx: FixtureHome;
  let rollouts: string[];
  beforeAll(() => {
    fx = makeFixtureHome();
    rollouts = jsonlFilesBelow(path.join(fx.home, '.codex', 'sessions'));
  });
  afterAll(() => fx.cleanup());

  it('gives exactly what the full parse gives, line by line, on the real rollouts', () => {
    expect(rollouts.length).toBeGreaterThan(0);
    let standIns = 0;
    for (const file of rollouts) {
      const { lines, full, fast } = replayBoth(() => new CodexParser(() => ({})), 'codex', file);
      expect(fast.sessions).toEqual(full.sessions);
      expect(fast.messages).toEqual(full.messages);
      expect(fast.state).toEqual(full.state);
      expect(fast.resets).toEqual(full.resets);
      standIns += fast.standIns;
      for (const line of lines) {
        const r = JSON.parse(line) as { type: string; payload?: { type?: string } };
        const standIn = take(line);
        if (!standIn) continue;
        // Never a kind the parser reads, and the envelope it reports is the parsed one.
        const readsMore = r.type === 'event_msg' ? EVENT_TYPES_READ.has(r.payload?.type ?? '') : RECORD_TYPES_READ.has(r.type);
        expect(readsMore).toBe(false);
        expect(standIn).toMatchObject({ timestamp: (r as { timestamp?: string }).timestamp, type: r.type });
      }
    }
    expect(standIns).toBeGreaterThan(10);
  });

  const ts = '"timestamp":"2026-01-01T00:00:00.000Z"';
  it.each([
    ['an event it reads', `{${ts},"type":"event_msg","payload":{"type":"token_count","info":null}}`],
    ['a record kind it reads', `{${ts},"type":"turn_context","payload":{"cwd":"/w"}}`],
    ['a torn line merged with the next record', `{${ts},"type":"event_msg","payload":{"type":"item_completed","x":"ab{${ts},"type":"response_item","payload":{}}`],
    ['a NUL inside', `{${ts},"type":"event_msg","payload":{"type":"item_completed","x":"a\u0000"}}`],
    ['an escaped timestamp', '{"timestamp":"2026\\u002d01","type":"event_msg","payload":{"type":"item_completed"}}'],
    ['a line not ending in }', `{${ts},"type":"event_msg","payload":{"type":"item_completed"`],
    ['a legacy bare record', `{${ts},"type":"message","role":"user","content":[]}`],
    ['the payload type not first', `{${ts},"type":"event_msg","payload":{"x":1,"type":"user_message","message":"hi"}}`],
  ])('parses %s as usual', (_name, line) => {
    expect(take(line)).toBeUndefined();
  });

  it('parses a line with invalid UTF-8 as usual (so it is reported)', () => {
    const b = Buffer.concat([Buffer.from(`{${ts},"type":"event_msg","payload":{"type":"item_completed","x":"`), Buffer.from([0xc3, 0x28]), Buffer.from('"}}')]);
    expect(shortcut(b, 0, b.length)).toBeUndefined();
  });

  it('stands in for timestamp-only kinds, with or without an ordinal', () => {
    expect(take(`{${ts},"ordinal":7,"type":"event_msg","payload":{"type":"item_completed","n":1}}`)).toEqual({ timestamp: '2026-01-01T00:00:00.000Z', type: 'event_msg', payload: { type: 'item_completed' } });
    expect(take(`{${ts},"type":"world_state","payload":{"full":true}}`)).toEqual({ timestamp: '2026-01-01T00:00:00.000Z', type: 'world_state', payload: {} });
  });
});
