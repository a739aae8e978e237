import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../../../testing/fixture-home.js';
import { SideDocuments } from './side-documents.js';

describe('SideDocuments: rewritten JSON documents beside transcripts', () => {
  let tmp: { dir: string; cleanup(): void };
  let file: string;
  const problems: string[] = [];
  const problem = (_file: string, message: string) => problems.push(message);
  const docs = () => new SideDocuments((d) => (typeof d === 'object' && d !== null ? (d as { title?: string }).title ?? null : null));
  beforeEach(() => {
    tmp = makeTempDir('baton-side-');
    file = path.join(tmp.dir, 'conversation.json');
    problems.length = 0;
  });
  afterEach(() => tmp.cleanup());

  it('reads a document once while its size and mtime stay the same, again when it changes', async () => {
    fs.writeFileSync(file, '{"title":"one"}');
    const d = docs();
    const stamp = await d.refresh(file, problem);
    expect(await d.refresh(file, problem)).toBe(stamp);
    expect(d.reads).toBe(1);
    expect(d.get(file)).toBe('one');
    fs.writeFileSync(file, '{"title":"two!"}');
    expect(await d.refresh(file, problem)).not.toBe(stamp);
    expect(d.reads).toBe(2);
    expect(d.get(file)).toBe('two!');
  });

  it('a half-written document keeps the last good value, is reported once and not re-read until it changes', async () => {
    fs.writeFileSync(file, '{"title":"good"}');
    const d = docs();
    await d.refresh(file, problem);
    fs.writeFileSync(file, '{"title":"go');
    await d.refresh(file, problem);
    await d.refresh(file, problem);
    expect(d.get(file)).toBe('good');
    expect(d.reads).toBe(2);
    expect(problems).toEqual(['not valid JSON; its last good content is kept']);
  });

  it('a missing document has no value and no problem', async () => {
    const d = docs();
    expect(await d.refresh(file, problem)).toBe('');
    expect(d.get(file)).toBeNull();
    expect(problems).toEqual([]);
  });
});
