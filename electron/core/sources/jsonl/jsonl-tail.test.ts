import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../../../testing/fixture-home.js';
import { HEAD_BYTES, openTail, type TailCursor, type TailOptions } from './jsonl-tail.js';

interface Run {
  values: unknown[];
  lines: number[];
  cursor: TailCursor | null;
  bytes: number;
  reset: boolean;
  unchanged: boolean;
  diags: [number | undefined, string][];
}

async function run(file: string, prev: TailCursor | null, opts: Partial<TailOptions> = {}): Promise<Run> {
  const diags: [number | undefined, string][] = [];
  const h = await openTail(file, prev, { ...opts, diagnostic: (l, m) => diags.push([l, m]) });
  const out: Run = { values: [], lines: [], cursor: prev, bytes: 0, reset: h.reset, unchanged: h.unchanged, diags };
  for await (const c of h.chunks()) {
    out.values.push(...c.records.map((r) => r.value));
    out.lines.push(...c.records.map((r) => r.line));
    out.cursor = c.cursor;
    out.bytes += c.bytesRead;
  }
  return out;
}

describe('jsonl tailer', () => {
  let tmp: { dir: string; cleanup(): void };
  let file: string;
  beforeEach(() => {
    tmp = makeTempDir('baton-tail-');
    file = path.join(tmp.dir, 'a.jsonl');
  });
  afterEach(() => tmp.cleanup());

  it('splits lines across tiny read chunks, strips CRLF, skips blank lines, numbers lines', async () => {
    const body = '{"a":1}\r\n\n{"b":"' + 'x'.repeat(100) + '"}\n  \n{"c":3}\n';
    fs.writeFileSync(file, body);
    const r = await run(file, null, { readSize: 7 });
    expect(r.values).toEqual([{ a: 1 }, { b: 'x'.repeat(100) }, { c: 3 }]);
    expect(r.lines).toEqual([1, 3, 5]);
    expect(r.diags).toEqual([]);
    expect(r.cursor).toMatchObject({ offset: body.length, line: 5, size: body.length });
    expect(r.bytes).toBe(body.length + Math.min(HEAD_BYTES, body.length)); // reads smaller than the head: a head read of its own
  });

  it('unchanged file: nothing read; appended: only the new bytes', async () => {
    fs.writeFileSync(file, '{"a":1}\n');
    const first = await run(file, null);
    const again = await run(file, first.cursor);
    expect(again).toMatchObject({ unchanged: true, bytes: 0, values: [] });
    fs.appendFileSync(file, '{"b":2}\n');
    const next = await run(file, first.cursor);
    expect(next.values).toEqual([{ b: 2 }]);
    expect(next.lines).toEqual([2]);
    expect(next.bytes).toBe(8 + 16); // appended line + head check of the (16-byte) file
  });

  it('keeps a small partial line in the cursor; a huge one is re-read instead of stored', async () => {
    fs.writeFileSync(file, '{"a":1}\n{"b":');
    const r1 = await run(file, null);
    expect(r1.values).toEqual([{ a: 1 }]);
    expect(r1.cursor).toMatchObject({ offset: 8, pending: Buffer.from('{"b":').toString('base64') });
    fs.appendFileSync(file, '2}\n');
    const r2 = await run(file, r1.cursor);
    expect(r2.values).toEqual([{ b: 2 }]);

    const big = `{"c":"${'y'.repeat(100_000)}`;
    fs.appendFileSync(file, big);
    const r3 = await run(file, r2.cursor);
    expect(r3.values).toEqual([]);
    expect(r3.cursor!.pending).toBeUndefined();
    expect(JSON.stringify(r3.cursor).length).toBeLessThan(1000);
    fs.appendFileSync(file, '"}\n');
    const r4 = await run(file, r3.cursor);
    expect(r4.values).toEqual([{ c: 'y'.repeat(100_000) }]);
  });

  it('a first read reads each byte once (the head hash rides on it) and still detects a rewritten head', async () => {
    const body = Array.from({ length: 300 }, (_, i) => JSON.stringify({ i, pad: 'p'.repeat(40) })).join('\n') + '\n';
    fs.writeFileSync(file, body);
    const first = await run(file, null);
    expect(first.values).toHaveLength(300);
    expect(first.bytes).toBe(body.length);
    expect(first.cursor).toMatchObject({ headLen: HEAD_BYTES, offset: body.length });
    // Same inode, one byte inside the head changed (well past the first line), then grown.
    const fd = fs.openSync(file, 'r+');
    fs.writeSync(fd, '9', body.indexOf('"i":50,') + 5);
    fs.closeSync(fd);
    fs.appendFileSync(file, '{"i":300}\n');
    const again = await run(file, first.cursor);
    expect(again.reset).toBe(true);
    expect(again.values).toHaveLength(301);
    expect(again.values[50]).toMatchObject({ i: 59 });
  });

  it('resets on a new inode, on shrinking, and on a rewritten head of the same size', async () => {
    fs.writeFileSync(file, '{"a":1}\n{"b":2}\n');
    const base = await run(file, null);
    fs.writeFileSync(`${file}.2`, '{"a":1}\n{"b":2}\n{"c":3}\n');
    fs.renameSync(`${file}.2`, file);
    const replaced = await run(file, base.cursor);
    expect(replaced.reset).toBe(true);
    expect(replaced.values).toHaveLength(3);

    fs.truncateSync(file, 8);
    const shrunk = await run(file, replaced.cursor);
    expect(shrunk).toMatchObject({ reset: true, values: [{ a: 1 }] });

    fs.writeFileSync(file, '{"z":9}\n{"b":2}\n{"c":3}\n'); // same inode, rewritten in place, grown
    const rewritten = await run(file, shrunk.cursor);
    expect(rewritten.reset).toBe(true);
    expect(rewritten.values).toEqual([{ z: 9 }, { b: 2 }, { c: 3 }]);
  });

  it('yields bounded chunks whose cursors resume exactly', async () => {
    const lines = Array.from({ length: 1000 }, (_, i) => JSON.stringify({ i })).join('\n') + '\n';
    fs.writeFileSync(file, lines);
    const h = await openTail(file, null, { diagnostic: () => undefined, maxRecords: 100 });
    const chunks = [];
    for await (const c of h.chunks()) chunks.push(c);
    expect(chunks.length).toBeGreaterThanOrEqual(10);
    for (const c of chunks) expect(c.records.length).toBeLessThanOrEqual(100);
    const resumed = await run(file, chunks[3]!.cursor);
    expect(resumed.unchanged).toBe(false);
    expect(resumed.values).toEqual(Array.from({ length: 600 }, (_, i) => ({ i: i + 400 })));
    expect(resumed.lines[0]).toBe(401);
  });

  it('reports non-object JSON lines', async () => {
    fs.writeFileSync(file, '[1,2]\n"str"\n{"ok":true}\n');
    const r = await run(file, null);
    expect(r.values).toEqual([{ ok: true }]);
    expect(r.diags).toEqual([
      [1, expect.stringMatching(/not a JSON object/)],
      [2, expect.stringMatching(/not a JSON object/)],
    ]);
  });

  it('streams a .jsonl.zst and re-reads it only when the archive changes', async () => {
    const zst = path.join(tmp.dir, 'b.jsonl.zst');
    const body = Array.from({ length: 5000 }, (_, i) => JSON.stringify({ i, pad: 'p'.repeat(50) })).join('\n') + '\n';
    fs.writeFileSync(zst, zlib.zstdCompressSync(Buffer.from(body)));
    const r = await run(zst, null);
    expect(r.values).toHaveLength(5000);
    expect(r.bytes).toBe(fs.statSync(zst).size);
    expect((await run(zst, r.cursor)).unchanged).toBe(true);
    fs.writeFileSync(zst, zlib.zstdCompressSync(Buffer.from('{"only":1}\n')));
    const again = await run(zst, r.cursor);
    expect(again).toMatchObject({ reset: true, values: [{ only: 1 }] });
  });

  it('a corrupt .zst surfaces as an error from the read, not a hang', async () => {
    const zst = path.join(tmp.dir, 'c.jsonl.zst');
    fs.writeFileSync(zst, Buffer.from('definitely not zstd'));
    await expect(run(zst, null)).rejects.toThrow();
  });

  it('throws ENOENT for a missing file', async () => {
    await expect(run(path.join(tmp.dir, 'missing.jsonl'), null)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
