/**
 * The one place where CLI output meets the terminal. `runCli` guards stdout and stderr for the whole
 * run: every string any command, commander or a library writes passes through
 * `sanitizeTerminalText` first, so no command can forget and session text can never clear the
 * screen, write the clipboard (OSC 52), plant links (OSC 8) or overwrite a line (CR).
 *
 * `--json` output passes the same guard losslessly: JSON.stringify already escapes C0, and the
 * guard writes C1, DEL, bidi controls and U+2028/9 as `\uXXXX`, the JSON escape of the same
 * character (see shared/terminal-text.ts).
 *
 * Baton's own styling (bold search hits, the index progress bar) is the only thing written around
 * the guard, through {@link styled} and {@link rawStream}, whose escapes are constants of Baton's.
 */
import { sanitizeTerminalText } from '../../shared/terminal-text.js';

type Stream = NodeJS.WriteStream;
type WriteFn = Stream['write'];

const originals = new WeakMap<Stream, WriteFn>();

function isUtf8(encoding: unknown): boolean {
  return encoding === undefined || typeof encoding === 'function' || encoding === 'utf8' || encoding === 'utf-8';
}

/** Wraps `stream.write` so that text is sanitised; returns the function that unwraps it. */
export function guardStream(stream: Stream): () => void {
  if (originals.has(stream)) return () => {};
  const original = stream.write;
  originals.set(stream, original);
  // Bytes are decoded as a stream, so a character split across two writes still decodes.
  const decoder = new TextDecoder('utf-8');
  const guarded = function (this: Stream, chunk: unknown, encoding?: unknown, callback?: unknown): boolean {
    let text: unknown = chunk;
    if (typeof chunk === 'string' && isUtf8(encoding)) text = sanitizeTerminalText(chunk);
    else if (chunk instanceof Uint8Array) text = sanitizeTerminalText(decoder.decode(chunk, { stream: true }));
    return (original as (...args: unknown[]) => boolean).call(this, text, encoding, callback);
  };
  stream.write = guarded as WriteFn;
  return () => {
    stream.write = original;
    originals.delete(stream);
  };
}

/** Guards stdout and stderr; returns the function that restores both. */
export function guardTerminalOutput(streams: Stream[] = [process.stdout, process.stderr]): () => void {
  const restores = streams.map(guardStream);
  return () => restores.forEach((restore) => restore());
}

function writeRaw(stream: Stream, text: string): boolean {
  const write = originals.get(stream) ?? stream.write;
  return (write as (s: string) => boolean).call(stream, text);
}

/** The escapes Baton itself styles with: nothing else is ever written unsanitised. */
export const STYLES = { bold: '\x1b[1m', normal: '\x1b[22m' } as const;
export type Style = keyof typeof STYLES;

/**
 * Writes text parts (sanitised) with Baton's styles between them (as is), e.g.
 * `styled(process.stdout, ['hit: ', { style: 'bold' }, word, { style: 'normal' }, '\n'])`.
 * Styles are left out when the stream is not a terminal.
 */
export function styled(stream: Stream, parts: (string | { style: Style })[]): void {
  for (const part of parts) {
    if (typeof part === 'string') stream.write(part);
    else if (stream.isTTY) writeRaw(stream, STYLES[part.style]);
  }
}

/**
 * A stream for a progress bar library that draws with cursor movements of its own: its writes go
 * around the guard. Only for output made of Baton's own strings and numbers.
 */
export function rawStream(stream: Stream): Pick<Stream, 'isTTY' | 'columns' | 'write'> {
  return {
    get isTTY() {
      return stream.isTTY;
    },
    get columns() {
      return stream.columns;
    },
    write: ((text: string, ...rest: unknown[]) => {
      const done = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
      const ok = writeRaw(stream, text);
      done?.();
      return ok;
    }) as Stream['write'],
  };
}
