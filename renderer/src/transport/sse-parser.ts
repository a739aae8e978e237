/**
 * Incremental parser for the server-sent events wire format
 * (https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation).
 * We read the stream with fetch rather than EventSource so a 401 can be told apart from a
 * dropped connection.
 */

export interface SseMessage {
  event: string;
  data: string;
}

export function createSseParser(onMessage: (message: SseMessage) => void): (chunk: string) => void {
  let buffer = '';
  let data: string[] = [];
  let event = '';

  const line = (text: string): void => {
    if (text === '') {
      if (data.length > 0) onMessage({ event: event || 'message', data: data.join('\n') });
      data = [];
      event = '';
      return;
    }
    if (text.startsWith(':')) return; // comment / keep-alive
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data.push(value);
    else if (field === 'event') event = value;
  };

  return (chunk: string) => {
    buffer += chunk;
    let newline: number;
    while ((newline = buffer.search(/\r\n|\r|\n/)) !== -1) {
      const isCrLf = buffer[newline] === '\r' && buffer[newline + 1] === '\n';
      // A lone trailing \r may be the first half of \r\n: wait for the next chunk.
      if (buffer[newline] === '\r' && newline === buffer.length - 1) break;
      line(buffer.slice(0, newline));
      buffer = buffer.slice(newline + (isCrLf ? 2 : 1));
    }
  };
}
