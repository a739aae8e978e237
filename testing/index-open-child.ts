/**
 * Test support: one of several processes opening index.db at the same moment (index-db-race.test.ts).
 * argv: <control dir> <child number> <rounds>. For each round r it waits for `<control>/go-<r>`,
 * opens `<control>/round-<r>` for writing, records itself in meta (so the test can tell a
 * connection that ended up on a file no longer at index.db: its row would be missing), closes, and
 * writes `<control>/done-<r>-<n>`: JSON { error, logs } (error null when the open succeeded).
 */
import fs from 'node:fs';
import path from 'node:path';
import { openIndexForWriting } from '../electron/core/index/index-db.js';

const [control, child, roundsArg] = process.argv.slice(2) as [string, string, string];
const rounds = Number(roundsArg);
const nap = new Int32Array(new SharedArrayBuffer(4));

fs.writeFileSync(path.join(control, `ready-${child}`), '');
for (let r = 0; r < rounds; r++) {
  const go = path.join(control, `go-${r}`);
  // Short sleeps, not a hot spin: eight spinning children on two cores would stagger the start.
  while (!fs.existsSync(go)) Atomics.wait(nap, 0, 0, 1);
  let error: string | null = null;
  const logs: string[] = [];
  try {
    const db = openIndexForWriting(path.join(control, `round-${r}`), { log: (level, message) => logs.push(`${level}: ${message}`) });
    try {
      db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)').run(`opener-${child}`, String(process.pid));
    } finally {
      db.close();
    }
  } catch (err) {
    error = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  }
  // Written whole, then renamed: the test reads it as soon as the name exists.
  const done = path.join(control, `done-${r}-${child}`);
  fs.writeFileSync(`${done}.tmp`, JSON.stringify({ error, logs }));
  fs.renameSync(`${done}.tmp`, done);
}
