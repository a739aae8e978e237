import { describe, expect, it } from 'vitest';
import { createSseParser, type SseMessage } from './sse-parser.js';

function parseAll(chunks: string[]): SseMessage[] {
  const out: SseMessage[] = [];
  const feed = createSseParser((m) => out.push(m));
  for (const chunk of chunks) feed(chunk);
  return out;
}

describe('createSseParser', () => {
  it('emits one message per blank-line-terminated block, ignoring comments', () => {
    expect(parseAll([': connected\n\ndata: {"a":1}\n\nevent: x\ndata: 2\n\n'])).toEqual([
      { event: 'message', data: '{"a":1}' },
      { event: 'x', data: '2' },
    ]);
  });

  it('reassembles messages split anywhere across chunks, CRLF included', () => {
    const text = 'data: {"type":"notice",\r\ndata: "x":1}\r\n\r\ndata: last\n\n';
    for (let cut = 1; cut < text.length; cut++) {
      expect(parseAll([text.slice(0, cut), text.slice(cut)])).toEqual([
        { event: 'message', data: '{"type":"notice",\n"x":1}' },
        { event: 'message', data: 'last' },
      ]);
    }
  });

  it('does not emit an unterminated message', () => {
    expect(parseAll(['data: half'])).toEqual([]);
  });
});
