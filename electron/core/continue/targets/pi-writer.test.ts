import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPiAdapter } from '../../sources/pi/pi-adapter.js';
import { makeFixtureHome, type FixtureHome } from '../../../../testing/fixture-home.js';
import { planFromClaudeFixture } from '../../../../testing/continue-plan.js';
import { writerContract, writerEnv } from '../../../../testing/continue-writer-suite.js';
import { piFileName, piSessionFolder, piWriter } from './pi-writer.js';

interface PiLine {
  id?: string;
  parentId?: string | null;
  timestamp?: string;
  message?: { role: string; usage: { cost: object } & object };
}

describe('pi native writer', () => {
  writerContract({ writer: piWriter, agent: 'pi', adapter: (roots) => createPiAdapter(roots), storeDir: (home) => path.join(home, '.pi', 'agent', 'sessions') });

  let fx: FixtureHome;
  beforeEach(() => (fx = makeFixtureHome()));
  afterEach(() => fx.cleanup());

  it('writes a v3 header, id/parentId entries and assistant entries with a full usage object', async () => {
    expect(piSessionFolder('/home/ana/projects/demo-app')).toBe('--home-ana-projects-demo-app--');
    expect(piFileName('2026-11-24T17:51:07.568Z', 'x')).toBe('2026-11-24T17-51-07-568Z_x.jsonl');
    const cwd = path.join(path.dirname(fx.home), 'proj');
    fs.mkdirSync(cwd);
    const fixtureSettings = path.join(fx.home, '.pi', 'agent', 'settings.json');
    fs.writeFileSync(fixtureSettings, JSON.stringify({ defaultProvider: 'mock', defaultModel: 'mock-sonnet' }));
    const staged = await piWriter.stage(await planFromClaudeFixture(fx.home, 'pi', cwd), writerEnv('pi', fx.env, fx.home), path.join(path.dirname(fx.home), 'stg'));
    const entries = fs.readFileSync(staged.files[0]!.stagedPath, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as PiLine);
    expect(entries[0]).toEqual({ type: 'session', version: 3, id: staged.nativeId, timestamp: entries[1]!.timestamp, cwd });
    expect(entries[1]!.parentId).toBeNull();
    entries.slice(2).forEach((e, i) => expect(e.parentId).toBe(entries[i + 1]!.id));
    const assistant = entries.find((e) => e.message?.role === 'assistant')!;
    expect(assistant.message!).toMatchObject({ provider: 'mock', model: 'mock-sonnet', stopReason: 'stop' });
    expect(Object.keys(assistant.message!.usage).sort()).toEqual(['cacheRead', 'cacheWrite', 'cost', 'input', 'output', 'totalTokens']);
    expect(Object.keys(assistant.message!.usage.cost).sort()).toEqual(['cacheRead', 'cacheWrite', 'input', 'output', 'total']);
    expect(entries.at(-1)).toMatchObject({ type: 'session_info', name: expect.stringContaining('Continued from Claude Code') });
  });

  it('writes flat into PI_CODING_AGENT_SESSION_DIR and resumes by that path', async () => {
    const dir = path.join(path.dirname(fx.home), 'pi-sessions');
    fs.mkdirSync(dir);
    const env = writerEnv('pi', { ...fx.env, PI_CODING_AGENT_SESSION_DIR: dir }, fx.home);
    const cwd = path.join(path.dirname(fx.home), 'proj');
    fs.mkdirSync(cwd);
    const plan = await planFromClaudeFixture(fx.home, 'pi', cwd);
    const staged = await piWriter.stage(plan, env, path.join(path.dirname(fx.home), 'stg'));
    expect(path.dirname(staged.files[0]!.finalPath)).toBe(dir);
    const result = await piWriter.commit(staged, plan, env);
    expect(result.resume).toEqual(['pi', '--session', staged.files[0]!.finalPath]);
  });
});
