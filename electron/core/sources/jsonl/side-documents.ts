/**
 * Small JSON documents an agent rewrites beside its transcripts (Droid's `<id>.settings.json`,
 * Letta's `conversation.json`): what a session takes from them (title, usage) is looked up here.
 * A document is read again only when its size or mtime changed since the last look, and a
 * document caught mid-rewrite (changed while read) keeps its last good value and is tried again at
 * the next listing; one that is not JSON keeps it too until it changes.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { errorCode, errorMessage } from './jsonl-session-reader.js';

/** Larger than any document of this kind: refused rather than read into memory. */
const MAX_DOCUMENT_BYTES = 1024 * 1024;

interface Known<T> {
  stamp: string;
  value: T | null;
}

export class SideDocuments<T> {
  private readonly docs = new Map<string, Known<T>>();
  /** Documents actually read (not just stat'ed): tests check unchanged ones are not read again. */
  reads = 0;

  constructor(private readonly parse: (doc: unknown) => T | null) {}

  /**
   * Brings `file` up to date and returns the stamp of the value now held ('' when there is none):
   * a unit's `stamp`, so a changed document makes its unit changed.
   */
  async refresh(file: string, problem: (file: string, message: string) => void): Promise<string> {
    const known = this.docs.get(file);
    let before;
    try {
      before = await fsp.stat(file);
    } catch (err) {
      if (errorCode(err) !== 'ENOENT') problem(file, `cannot stat: ${errorMessage(err)}`);
      this.docs.delete(file);
      return '';
    }
    const stamp = `${before.size}:${before.mtimeMs}`;
    if (known?.stamp === stamp) return stamp;
    if (before.size > MAX_DOCUMENT_BYTES) {
      problem(file, `${before.size} bytes; not read`);
      return known?.stamp ?? '';
    }
    try {
      const text = await fsp.readFile(file, 'utf8');
      this.reads++;
      const after = await fsp.stat(file);
      if (`${after.size}:${after.mtimeMs}` !== stamp) return known?.stamp ?? ''; // rewritten while read: next time
      this.docs.set(file, { stamp, value: this.parse(JSON.parse(text) as unknown) });
      return stamp;
    } catch (err) {
      if (!(err instanceof SyntaxError)) {
        problem(file, `cannot read: ${errorMessage(err)}`);
        return known?.stamp ?? '';
      }
      // Not JSON at this size+mtime: keep what was known and do not read it again until it changes.
      problem(file, `not valid JSON; its last good content is kept`);
      this.docs.set(file, { stamp, value: known?.value ?? null });
      return stamp;
    }
  }

  get(file: string): T | null {
    const known = this.docs.get(file);
    if (known) return known.value;
    // Never listed by this instance: the read-ahead worker parses units the writer thread listed,
    // with adapters of its own. Read the document now (small, bounded), or a cold index read in
    // the worker would lose what sessions take from it (model, usage, title).
    try {
      const st = fs.statSync(file);
      if (st.size > MAX_DOCUMENT_BYTES) return null;
      const value = this.parse(JSON.parse(fs.readFileSync(file, 'utf8')) as unknown);
      this.reads++;
      this.docs.set(file, { stamp: `${st.size}:${st.mtimeMs}`, value });
      return value;
    } catch {
      return null; // missing or not JSON: the next listing reports it
    }
  }
}
