import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeFixtureHome, type FixtureHome } from '../../../../testing/fixture-home.js';
import { jsonlFilesBelow, replayBoth, takeLine } from '../../../../testing/shortcut-replay.js';
import { ClaudeParser, RECORD_TYPES_READ } from './claude-records.js';

const shortcut = new ClaudeParser().shortcut;
const take = (line: string | Buffer) => takeLine(shortcut, line);


const ENVELOPE = '{"parentUuid":"0b6c5a0e-1b7e-4c1e-9d59-3f1d7c1a2b3c","isSidechain":false';
const REST = '"uuid":"5f0e","timestamp":"2026-01-01T00:00:00.000Z","sessionId":"s1","cwd":"/w"}';
const attachment = (inner: string, type = 'attachment') => `${ENVELOPE},"attachment":${inner},"type":"${type}",${REST}`;

describe('Claude line shortcut', () => {
  let fx: FixtureHome;
  let transcripts: string[];
  beforeAll(() => {
    fx = makeFixtureHome();
    transcripts = jsonlFilesBelow(path.join(fx.home, '.claude', 'projects'));
  });
  afterAll(() => fx.cleanup());

  it('gives exactly what the full parse gives, line by line, on the real transcripts', () => {
    expect(transcripts.length).toBeGreaterThan(4);
    let standInBytes = 0;
    let totalBytes = 0;
    for (const file of transcripts) {
      const { lines, full, fast } = replayBoth(() => new ClaudeParser(), 'claude', file);
      expect(fast.sessions).toEqual(full.sessions);
      expect(fast.messages).toEqual(full.messages);
      expect(fast.state).toEqual(full.state);
      standInBytes += fast.standInBytes;
      for (const line of lines) {
        totalBytes += Buffer.byteLength(line);
        const standIn = take(line);
        if (!standIn) continue;
        // Never a kind the parser reads, and the type it reports is the parsed one.
        const r = JSON.parse(line) as { type: string };
        expect(RECORD_TYPES_READ.has(r.type)).toBe(false);
        expect(standIn).toEqual({ type: r.type });
      }
    }
    // Most of a real transcript's bytes are records Baton ignores: that is the point of the shortcut.
    expect(standInBytes / totalBytes).toBeGreaterThan(0.6);
  });

  it.each([
    ['an api-request line', '{"type":"api-request-shape","sessionId":"s1","shape":{"system":[{"type":"text","text":"x"}]}}', 'api-request-shape'],
    ['an attachment', attachment('{"type":"skill_listing","text":"a } ] { [ \\" \\\\","n":[1,{"k":"v"}]}'), 'attachment'],
    ['an attachment whose string ends in an escaped backslash', attachment('{"text":"C:\\\\"}'), 'attachment'],
    ['an attachment with a null parent', attachment('{}').replace('"0b6c5a0e-1b7e-4c1e-9d59-3f1d7c1a2b3c"', 'null'), 'attachment'],
  ])('stands in for %s', (_name, line, type) => {
    expect(JSON.parse(line)).toMatchObject({ type });
    expect(take(line)).toEqual({ type });
  });

  it.each([
    ['a record kind it reads (type first)', '{"type":"summary","summary":"Fix login","leafUuid":"u1"}'],
    ['a custom title', '{"type":"custom-title","customTitle":"Mine","sessionId":"s1"}'],
    ['a conversation record', `${ENVELOPE},"message":{"role":"user","content":"hi"},"type":"user",${REST}`],
    ['an "attachment" member on a record the parser reads', attachment('{"x":1}', 'user')],
    ['a torn line merged with the next record', `{"type":"api-request","x":"ab${ENVELOPE},"type":"user",${REST}`],
    ['an attachment torn inside a string', `${ENVELOPE},"attachment":{"text":"abc,"type":"attachment",${REST}`],
    ['an attachment that never closes', `${ENVELOPE},"attachment":{"a":{"b":1},"type":"attachment"}`],
    ['a NUL inside', '{"type":"api-request","x":"a\u0000"}'],
    ['an escaped type name', '{"type":"api\\u002drequest","x":1}'],
    ['a line not ending in }', '{"type":"api-request","x":1'],
    ['a type that is a prefix of a longer token', '{"type":"api-request-shape\\"x","a":1}'],
    ['the type not first and no attachment', '{"sessionId":"s1","type":"api-request"}'],
  ])('parses %s as usual', (_name, line) => {
    expect(take(line)).toBeUndefined();
  });

  it('parses a line with invalid UTF-8 as usual (so it is reported)', () => {
    const line = Buffer.concat([Buffer.from('{"type":"api-request","x":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]);
    expect(take(line)).toBeUndefined();
    expect(take(Buffer.from(attachment('{"t":"\u00e9"}')))).toEqual({ type: 'attachment' });
    const bad = Buffer.from(attachment('{"t":"XX"}'));
    bad.set([0xc3, 0x28], bad.indexOf('XX'));
    expect(take(bad)).toBeUndefined();
  });
});
