// `baton usage` in text shows the limit hits (agent, session, when, resets) that only its JSON had:
// the table itself, then the real command over the stores the CLIs wrote when their limit was hit.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LimitHit } from '../../shared/limits.js';
import { homeEnvironment } from '../../testing/fixture-home.js';
import { limitHitsTable, localMinute } from './commands/usage-limits.js';

const run = promisify(execFile);
const here = path.dirname(fileURLToPath(import.meta.url));
const bin = path.resolve(here, '../../bin/baton.mjs');
const LIMITS_HOME = path.resolve(here, '../../testing/fixtures/limits/home');

const hit = (over: Partial<LimitHit>): LimitHit => ({ key: 'k', agent: 'codex', session: 'codex:01a21b7a-6b62-7c42-8eb9-db31d734a33b', at: '2026-11-27T05:28:57.541Z', resetsAt: '2026-11-27T08:27:47.000Z', kind: 'usage_limit', window: 'primary', note: null, ...over });

describe('the limit hits table', () => {
  it('lists each hit newest first with its agent, session, local times and kind; an unknown reset says so', () => {
    const lines = limitHitsTable([
      hit({}),
      hit({ key: 'c', agent: 'claude', session: 'claude:4863b5d4-1888-45c8-91e7-6e0b2d42b891', at: '2026-11-27T05:40:00.000Z', resetsAt: null, kind: 'rate_limit', window: null }),
    ]).trim().split('\n');
    expect(lines[0]).toBe('Limit hits:');
    expect(lines[1]!.split(/\s{2,}/)).toEqual(['AGENT', 'SESSION', 'WHEN', 'RESETS', 'KIND']);
    expect(lines[2]!.split(/\s{2,}/)).toEqual(['Claude Code', 'claude:4863b5d4-1888-4', localMinute('2026-11-27T05:40:00.000Z'), 'not recorded', 'rate limit']);
    expect(lines[3]!.split(/\s{2,}/)).toEqual(['Codex CLI', 'codex:01a21b7a-6b62-7c', localMinute('2026-11-27T05:28:57.541Z'), localMinute('2026-11-27T08:27:47.000Z'), 'usage limit (primary)']);
    expect(limitHitsTable([])).toBe('');
  });
});

describe('baton usage over the recorded limit hits', () => {
  let root: string;
  let env: NodeJS.ProcessEnv;
  beforeAll(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'baton-usage-limits-'));
    fs.cpSync(LIMITS_HOME, path.join(root, 'home'), { recursive: true });
    env = { ...homeEnvironment(process.env, path.join(root, 'home'), path.join(root, 'baton')), BATON_NO_SERVER: '1' };
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('prints a hit row per session that stopped on its limit, as the JSON rows carry them', async () => {
    const json = JSON.parse((await run(process.execPath, [bin, 'usage', '--json'], { env, timeout: 120_000 })).stdout) as { session: string; limitHit: LimitHit | null }[];
    const hits = json.flatMap((r) => (r.limitHit ? [r.limitHit] : []));
    expect(new Set(hits.map((h) => h.agent))).toEqual(new Set(['claude', 'codex', 'qwen', 'pi', 'opencode', 'gemini', 'hermes']));
    const { stdout } = await run(process.execPath, [bin, 'usage'], { env, timeout: 120_000 });
    const table = stdout.slice(stdout.indexOf('Limit hits:'));
    expect(stdout).toContain('Limit hits:');
    const rows = table.trim().split('\n').slice(2);
    expect(rows).toHaveLength(hits.length);
    const codex = hits.find((h) => h.agent === 'codex')!;
    expect(rows.find((r) => r.startsWith('Codex CLI'))!.split(/\s{2,}/)).toEqual([
      'Codex CLI', codex.session.slice(0, 22), localMinute(codex.at!), localMinute(codex.resetsAt!), 'usage limit (primary)',
    ]);
    expect(rows.find((r) => r.startsWith('Claude Code'))).toContain('not recorded');
  }, 150_000);
});
