// Session text that attacks the terminal, printed by the real `baton` commands: nothing a terminal
// acts on comes out, the attack stays visible, `--json` still carries the exact text, and Baton's
// own styling still works.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../testing/fixture-home.js';
import { guardStream, rawStream, styled } from './terminal-output.js';
import { shorten } from './commands/table.js';

const run = promisify(execFile);
const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/baton.mjs');

const PROMPT =
  'zanzibar \x1b[2J\x1b[H cleared \x1b]52;c;cm0gLXJmIH4K\x07 clipboard \x1b]8;;https://evil.example\x1b\\link\x1b]8;;\x1b\\ ' +
  'done\rOVERWRITE \x9b31mc1\x9b0m \u202eevil\u202c \x7f end';
 
const ACTIVE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

function hostileSession(home: string, cwd: string): void {
  const dir = path.join(home, '.claude', 'projects', '-work-hostile');
  fs.mkdirSync(dir, { recursive: true });
  const sessionId = '0badc0de-0000-4000-8000-000000000001';
  const base = { isSidechain: false, userType: 'external', cwd, sessionId, version: '2.1.330', gitBranch: 'main' };
  const lines = [
    { ...base, parentUuid: null, type: 'user', message: { role: 'user', content: PROMPT }, uuid: 'u1', timestamp: '2026-11-22T03:40:05.262Z' },
    {
      ...base, parentUuid: 'u1', type: 'assistant', uuid: 'a1', timestamp: '2026-11-22T03:40:09.000Z',
      message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-opus-5-5', content: [{ type: 'text', text: `Answer: ${PROMPT}` }], stop_reason: 'end_turn', usage: { input_tokens: 10, output_tokens: 5 } },
    },
  ];
  fs.writeFileSync(path.join(dir, `${sessionId}.jsonl`), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
}

describe('baton commands print session text that attacks the terminal', () => {
  let tmp: { dir: string; cleanup(): void };
  let env: NodeJS.ProcessEnv;
  const cwd = '/work/\x1b]0;title\x07hostile';

  beforeAll(() => {
    tmp = makeTempDir('baton-term-');
    const home = path.join(tmp.dir, 'home');
    hostileSession(home, cwd);
    env = { ...process.env, HOME: home, BATON_HOME: path.join(tmp.dir, 'baton'), BATON_NO_SERVER: '1' };
    for (const key of ['CLAUDE_CONFIG_DIR', 'CODEX_HOME', 'XDG_DATA_HOME', 'XDG_CONFIG_HOME']) delete env[key];
  });
  afterAll(() => tmp.cleanup());

  const baton = async (...args: string[]) => run(process.execPath, [bin, ...args], { env, timeout: 60_000, encoding: 'utf8' });

  it.each([['list'], ['search', 'zanzibar'], ['brief', '--last']])('baton %s', async (...args) => {
    const { stdout, stderr } = await baton(...args);
    expect(stdout).toContain('zanzibar');
    for (const out of [stdout, stderr]) expect(out).not.toMatch(ACTIVE);
    // Visible, not silently dropped.
    expect(stdout).toContain('␛');
  });

  it('baton list --json carries the exact text, as valid JSON with no raw control character', async () => {
    const { stdout } = await baton('list', '--json');
    expect(stdout).not.toMatch(ACTIVE);
    const sessions = JSON.parse(stdout) as { firstPrompt: string | null; cwd: string | null }[];
    expect(sessions.map((s) => s.cwd)).toEqual([cwd]);
    expect(sessions[0]!.firstPrompt).toContain('\x9b31mc1');
  });

  it('a cut column never leaves half an escape sequence', () => {
    for (let max = 2; max < 40; max++) {
      const cell = shorten('ab\x1b]52;c;cm0gLXJmIH4K\x07\u202e' + '日本語'.repeat(3), max);
      expect(cell).not.toMatch(ACTIVE);
    }
  });
});

describe('the output guard', () => {
  function capture(isTTY: boolean) {
    const stream = new PassThrough() as unknown as NodeJS.WriteStream;
    (stream as { isTTY: boolean }).isTTY = isTTY;
    const chunks: string[] = [];
    (stream as unknown as PassThrough).on('data', (c: Buffer) => chunks.push(c.toString('utf8')));
    const unguard = guardStream(stream);
    return { stream, text: () => chunks.join(''), unguard };
  }

  it('sanitises strings and bytes (also split characters), and lets only Baton’s own styles through', async () => {
    const { stream, text, unguard } = capture(true);
    stream.write('a\x1b[2Jb\n');
    const bytes = Buffer.from('日\x9b', 'utf8');
    stream.write(bytes.subarray(0, 2));
    stream.write(bytes.subarray(2));
    styled(stream, ['hit ', { style: 'bold' }, 'x\x1b]52;c;AA==\x07', { style: 'normal' }, '\n']);
    rawStream(stream).write('\x1b[?25l');
    unguard();
    await new Promise((r) => setImmediate(r));
    expect(text()).toBe('a␛[2Jb\n日\\u009bhit \x1b[1mx␛]52;c;AA==␇\x1b[22m\n\x1b[?25l');
  });

  it('writes no styles to a pipe', async () => {
    const { stream, text, unguard } = capture(false);
    styled(stream, [{ style: 'bold' }, 'word', { style: 'normal' }]);
    unguard();
    await new Promise((r) => setImmediate(r));
    expect(text()).toBe('word');
  });
});
