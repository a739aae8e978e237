/**
 * Incremental, streaming reader for append-only JSONL transcripts (Claude Code, Codex, Gemini CLI, Qwen Code, pi).
 *
 * Reads only the bytes appended since the saved cursor, in fixed-size chunks (memory does not grow
 * with the file), splits on `\n` without concatenating big strings, and never parses a partial last
 * line. A file that was replaced or truncated (other dev/inode, shrunk, first 4 KiB changed) is read
 * again from the start and reported as `reset`. Bad lines (malformed JSON, NUL-filled, longer than
 * `maxLineBytes`) are skipped with a diagnostic naming the 1-based line number and byte offset; an
 * over-long line is dropped as it streams by, never held in memory. A line with invalid UTF-8 is
 * kept, its bad bytes replaced by U+FFFD, with a warning: losing a user's turn silently is worse.
 * `.jsonl.zst` files (Codex cold archive) are stream-decompressed; offsets then count decompressed
 * bytes and any change to the compressed file means a full re-read (zstd frames cannot be seeked).
 */
import { isUtf8 } from 'node:buffer';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { pipeline } from 'node:stream';
import zlib from 'node:zlib';

export const HEAD_BYTES = 4096;
export const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;
const DEFAULT_READ_SIZE = 1024 * 1024;
const DEFAULT_MAX_RECORDS = 256;
/** A partial last line up to this size is kept in the cursor; longer ones are simply re-read. */
const MAX_PENDING_IN_CURSOR = 64 * 1024;

/** Position of a reader in one file; plain JSON so it can be stored with the index rows. */
export interface TailCursor {
  dev: string;
  ino: string;
  /** Bytes of the file scanned when this cursor was made (end of data for the last chunk, the
   *  cursor's own offset for an intermediate one), so "unchanged" means "fully read and not grown".
   *  For .zst: the compressed size on the last chunk, -1 on intermediate ones (no seeking: re-read). */
  size: number;
  mtimeMs: number;
  /** Byte offset just after the last complete line consumed (decompressed bytes for .zst). */
  offset: number;
  /** Complete lines consumed so far (so diagnostics can name 1-based line numbers). */
  line: number;
  headLen: number;
  headHash: string;
  /** Base64 bytes of an incomplete last line that start at `offset` (small lines only). */
  pending?: string;
  /** An over-long line is being skipped: drop bytes up to the next newline. */
  skipping?: boolean;
  /** Byte offset where the line being skipped starts (for its diagnostic). */
  skipFrom?: number;
  zst?: boolean;
}

export interface TailRecord {
  /** A parsed JSON object (never an array or primitive). */
  value: Record<string, unknown>;
  /** 1-based line number in the file. */
  line: number;
}

export interface TailChunk {
  records: TailRecord[];
  /** Cursor positioned right after `records` (persist it together with what they produced). */
  cursor: TailCursor;
  /** Bytes read from disk since the previous chunk (compressed bytes for .zst). */
  bytesRead: number;
}

/**
 * A consumer's fast path for lines it can classify from their first bytes: returns a small object
 * standing in for `JSON.parse(line)` (the line is then neither decoded nor parsed), or undefined to
 * parse it as usual. The stand-in must hold exactly what the full parse would give for every field
 * the consumer reads; `bytes[from, to)` is the line without its line break or leading blanks.
 */
export type LineShortcut = (bytes: Buffer, from: number, to: number) => Record<string, unknown> | undefined;

/** What a tail diagnostic is about, for callers that keep problems per file (see ProblemKind). */
export interface TailDiagnosticDetail {
  kind: 'line_too_long' | 'malformed_lines' | 'invalid_utf8' | 'unfinished_line';
  /** Byte offset of the line in the file (decompressed bytes for .zst), when known. */
  offset?: number;
}

export interface TailOptions {
  /** Lines longer than this are skipped with a diagnostic (default 16 MiB). */
  maxLineBytes?: number;
  /** Records per yielded chunk (default 256) so callers can bound their batches. */
  maxRecords?: number;
  readSize?: number;
  diagnostic(line: number | undefined, message: string, detail?: TailDiagnosticDetail): void;
  /** Also report a partial last line left at the end of the data (kind `unfinished_line`). */
  reportUnfinished?: boolean;
  signal?: AbortSignal;
  shortcut?: LineShortcut;
}

export interface TailHandle {
  /** True when `prev` no longer describes this file: everything derived from it must be dropped. */
  reset: boolean;
  /** Nothing changed since `prev`: `chunks()` yields nothing and reads nothing. */
  unchanged: boolean;
  chunks(): AsyncGenerator<TailChunk>;
}

export function isTailCursor(value: unknown): value is TailCursor {
  if (typeof value !== 'object' || value === null) return false;
  const c = value as Record<string, unknown>;
  return (
    typeof c.dev === 'string' &&
    typeof c.ino === 'string' &&
    typeof c.size === 'number' &&
    typeof c.offset === 'number' &&
    typeof c.line === 'number' &&
    typeof c.headLen === 'number' &&
    typeof c.headHash === 'string'
  );
}

function hashBytes(buf: Buffer): string {
  return createHash('sha1').update(buf).digest('base64');
}

/** Reads until `length` bytes or end of file; returns the count (sync: the data is usually in the page cache). */
function readFullSync(fd: number, buf: Buffer, length: number, position: number): number {
  let got = 0;
  while (got < length) {
    const n = fs.readSync(fd, buf, got, length - got, position + got);
    if (n === 0) break;
    got += n;
  }
  return got;
}

/** Read buffers of the default size, reused across files (a fresh 1 MiB per file costs GC time). */
const sparePool: Buffer[] = [];
const MAX_SPARE = 4;

function takeBuffer(size: number): Buffer {
  return (size === DEFAULT_READ_SIZE ? sparePool.pop() : undefined) ?? Buffer.allocUnsafeSlow(size);
}

function giveBuffer(buf: Buffer): void {
  if (buf.length === DEFAULT_READ_SIZE && sparePool.length < MAX_SPARE) sparePool.push(buf);
}

/**
 * Opens `file` for an incremental read from `prev`. Throws the fs error (e.g. ENOENT) when the file
 * cannot be opened; everything after opening is tolerant.
 *
 * Plain files use synchronous open/fstat/read: a local read of a cached file takes microseconds, far
 * less than the promise API's round trip through the thread pool, and reads are at most
 * `readSize` bytes so the event loop is never held for long.
 */
export async function openTail(file: string, prev: TailCursor | null, opts: TailOptions): Promise<TailHandle> {
  if (file.endsWith('.zst')) return openZstTail(file, prev, opts);
  const fd = fs.openSync(file, 'r');
  let handedOver = false;
  try {
    const st = fs.fstatSync(fd, { bigint: true });
    const dev = st.dev.toString();
    const ino = st.ino.toString();
    const size = Number(st.size);
    const mtimeMs = Number(st.mtimeMs);
    let reset = false;
    let start: TailCursor;
    /** Bytes read so far (the head check included), reported with the chunks. */
    let bytesRead = 0;
    if (prev) {
      const pendingLen = prev.pending ? Buffer.byteLength(prev.pending, 'base64') : 0;
      if (prev.zst || prev.dev !== dev || prev.ino !== ino || size < prev.offset + pendingLen) reset = true;
      else if (size === prev.size && mtimeMs === prev.mtimeMs) {
        return { reset: false, unchanged: true, chunks: emptyChunks };
      }
    }
    if (prev && !reset) {
      // Resuming: one small read checks the head was not rewritten in place.
      const head = Buffer.allocUnsafe(Math.min(HEAD_BYTES, size));
      const got = readFullSync(fd, head, head.length, 0);
      bytesRead += got;
      const headBytes = head.subarray(0, got);
      if (prev.headLen > 0 && (got < prev.headLen || hashBytes(headBytes.subarray(0, prev.headLen)) !== prev.headHash)) reset = true;
      start = reset
        ? { dev, ino, size, mtimeMs, offset: 0, line: 0, headLen: 0, headHash: '' }
        : { ...prev, dev, ino, size, mtimeMs, headLen: got, headHash: hashBytes(headBytes) };
    } else {
      start = { dev, ino, size, mtimeMs, offset: 0, line: 0, headLen: 0, headHash: '' };
    }
    /** Reading from the start: the head hash comes from the first read instead of a read of its own. */
    const hashFirstRead = start.offset === 0 && !start.pending;
    handedOver = true;
    return {
      reset,
      unchanged: false,
      async *chunks() {
        const readSize = opts.readSize ?? DEFAULT_READ_SIZE;
        const buf = takeBuffer(readSize);
        try {
          const pending = start.pending ? Buffer.from(start.pending, 'base64') : null;
          let pos = start.offset + (pending ? pending.length : 0);
          let first = hashFirstRead;
          function* source(): Generator<Buffer> {
            for (;;) {
              if (opts.signal?.aborted) return;
              const n = fs.readSync(fd, buf, 0, readSize, pos);
              if (first) {
                // Reading from the start: hash the head from this read instead of a read of its own
                // (before the first chunk is cut, so every cursor carries it).
                first = false;
                let head = buf.subarray(0, Math.min(HEAD_BYTES, n));
                if (n === readSize && readSize < HEAD_BYTES) {
                  // Reads smaller than the head (tests): the head needs a read of its own.
                  head = Buffer.allocUnsafe(HEAD_BYTES);
                  head = head.subarray(0, readFullSync(fd, head, HEAD_BYTES, 0));
                  bytesRead += head.length;
                }
                start.headLen = head.length;
                start.headHash = hashBytes(head);
              }
              if (n === 0) return;
              pos += n;
              bytesRead += n;
              if (n < readSize) {
                // A short read of a regular file is its current end: no extra read to learn that.
                yield buf.subarray(0, n);
                return;
              }
              yield buf;
            }
          }
          let reported = 0;
          const takeBytes = () => {
            const n = bytesRead - reported;
            reported = bytesRead;
            return n;
          };
          yield* splitLines(source(), start, pending, opts, takeBytes);
        } finally {
          fs.closeSync(fd);
          giveBuffer(buf);
        }
      },
    };
  } finally {
    if (!handedOver) fs.closeSync(fd);
  }
}

async function* emptyChunks(): AsyncGenerator<TailChunk> {
  // Nothing to read.
}

async function openZstTail(file: string, prev: TailCursor | null, opts: TailOptions): Promise<TailHandle> {
  const st = await fs.promises.stat(file, { bigint: true });
  const dev = st.dev.toString();
  const ino = st.ino.toString();
  const size = Number(st.size);
  const mtimeMs = Number(st.mtimeMs);
  if (prev && prev.zst && prev.dev === dev && prev.ino === ino && prev.size === size && prev.mtimeMs === mtimeMs) {
    return { reset: false, unchanged: true, chunks: emptyChunks };
  }
  const start: TailCursor = { dev, ino, size, mtimeMs, offset: 0, line: 0, headLen: 0, headHash: '', zst: true };
  return {
    reset: prev !== null,
    unchanged: false,
    async *chunks() {
      const raw = fs.createReadStream(file, { highWaterMark: DEFAULT_READ_SIZE });
      const inflate = zlib.createZstdDecompress();
      // pipeline() forwards errors from either side to the iterator below and closes both.
      pipeline(raw, inflate, () => undefined);
      let reported = 0;
      const takeBytes = () => {
        const n = raw.bytesRead - reported;
        reported = raw.bytesRead;
        return n;
      };
      try {
        yield* splitLines(inflate as AsyncIterable<Buffer>, start, null, opts, takeBytes);
      } finally {
        raw.destroy();
        inflate.destroy();
      }
    },
  };
}

const NUL = 0;
const LF = 10;
const CR = 13;

/**
 * Splits a byte stream into JSON records. `start.offset` is the absolute position of the first
 * byte of `pending` (or of the stream when there is none).
 */
async function* splitLines(
  source: AsyncIterable<Buffer> | Iterable<Buffer>,
  start: TailCursor,
  pending: Buffer | null,
  opts: TailOptions,
  takeBytes: () => number,
): AsyncGenerator<TailChunk> {
  const maxLine = opts.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const maxRecords = opts.maxRecords ?? DEFAULT_MAX_RECORDS;
  const shortcut = opts.shortcut;
  let lineNo = start.line;
  /** Absolute offset where the current (unfinished) line starts. */
  let lineStart = start.offset;
  /** Absolute offset of the first byte of the next buffer from `source`. */
  let streamPos = start.offset + (pending ? pending.length : 0);
  let carry: Buffer[] = pending && pending.length > 0 ? [pending] : [];
  let carryLen = pending ? pending.length : 0;
  let skipping = start.skipping === true;
  let skipFrom = start.skipFrom ?? start.offset;
  let records: TailRecord[] = [];

  const cursorAt = (offset: number, pend: Buffer | null, skip: boolean, final: boolean): TailCursor => {
    const size = start.zst ? (final ? start.size : -1) : final ? streamPos : offset;
    const c: TailCursor = { ...start, size, offset, line: lineNo };
    delete c.pending;
    delete c.skipping;
    delete c.skipFrom;
    if (pend && pend.length > 0) c.pending = pend.toString('base64');
    if (skip) {
      c.skipping = true;
      c.skipFrom = skipFrom;
    }
    return c;
  };

  const tooLong = (offset: number) => {
    lineNo++;
    opts.diagnostic(lineNo, `line longer than ${maxLine} bytes; skipped`, { kind: 'line_too_long', offset });
  };

  /** Parses bytes[from, to) (one line without its `\n`, starting at file offset `at`); decodes nothing outside it. */
  const handleLine = (bytes: Buffer, from: number, to: number, at: number) => {
    lineNo++;
    const malformed = (message: string) => opts.diagnostic(lineNo, message, { kind: 'malformed_lines', offset: at });
    let end = to;
    if (end > from && bytes[end - 1] === CR) end--;
    let first = from;
    while (first < end && (bytes[first] === 32 || bytes[first] === 9)) first++;
    if (first === end) return; // blank line: nothing to say
    if (bytes[first] === NUL) {
      malformed('line is NUL-filled (crash residue); skipped');
      return;
    }
    if (shortcut) {
      const standIn = shortcut(bytes, first, end);
      if (standIn !== undefined) {
        records.push({ value: standIn, line: lineNo });
        return;
      }
    }
    // toString() substitutes U+FFFD for bytes that are not UTF-8: the line is kept that way (a
    // user's turn with one bad byte is worth more than no turn), with a warning once it parses.
    const text = bytes.toString('utf8', first, end);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      const why = bytes.subarray(first, end).includes(NUL) ? 'contains NUL bytes' : (err as Error).message.slice(0, 120);
      malformed(`malformed JSON (${why}); skipped`);
      return;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      malformed('line is not a JSON object; skipped');
      return;
    }
    // Only a line showing U+FFFD pays for the strict check (the file may legitimately contain U+FFFD).
    if (text.includes('\uFFFD') && !isUtf8(bytes.subarray(first, end))) {
      opts.diagnostic(lineNo, 'line is not valid UTF-8; read with the bad bytes replaced by U+FFFD', { kind: 'invalid_utf8', offset: at });
    }
    records.push({ value: value as Record<string, unknown>, line: lineNo });
  };

  for await (const buf of source) {
    const bufStart = streamPos;
    streamPos += buf.length;
    let pos = 0;
    while (pos < buf.length) {
      const nl = buf.indexOf(LF, pos);
      if (nl === -1) {
        const rest = buf.length - pos;
        if (skipping) {
          // Still inside an over-long line: drop these bytes.
        } else if (carryLen + rest > maxLine) {
          skipping = true;
          skipFrom = lineStart;
          carry = [];
          carryLen = 0;
        } else {
          carry.push(Buffer.from(buf.subarray(pos))); // copy: the chunk buffer is not ours to keep
          carryLen += rest;
        }
        break; // rest of this buffer consumed
      }
      if (skipping) {
        tooLong(skipFrom);
        skipping = false;
      } else if (carryLen > 0) {
        const total = carryLen + (nl - pos);
        if (total > maxLine) {
          tooLong(lineStart);
        } else {
          carry.push(buf.subarray(pos, nl));
          handleLine(Buffer.concat(carry, total), 0, total, lineStart);
        }
        carry = [];
        carryLen = 0;
      } else if (nl - pos > maxLine) {
        tooLong(lineStart);
      } else {
        handleLine(buf, pos, nl, lineStart);
      }
      pos = nl + 1;
      lineStart = bufStart + pos;
      if (records.length >= maxRecords) {
        const out = records;
        records = [];
        yield { records: out, cursor: cursorAt(lineStart, null, false, false), bytesRead: takeBytes() };
      }
    }
  }
  // End of data: what is left is an incomplete line, kept for next time (never parsed now).
  if (opts.reportUnfinished && (skipping || carryLen > 0)) {
    const from = skipping ? skipFrom : lineStart;
    opts.diagnostic(lineNo + 1, `the last line is unfinished (${streamPos - from} bytes without a line break)`, { kind: 'unfinished_line', offset: from });
  }
  if (skipping) {
    yield { records, cursor: cursorAt(streamPos, null, true, true), bytesRead: takeBytes() };
    return;
  }
  const keep = carryLen > 0 && carryLen <= MAX_PENDING_IN_CURSOR ? Buffer.concat(carry, carryLen) : null;
  yield { records, cursor: cursorAt(lineStart, keep, false, true), bytesRead: takeBytes() };
}
