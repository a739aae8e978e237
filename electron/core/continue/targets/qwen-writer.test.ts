import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createQwenAdapter } from '../../sources/qwen/qwen-adapter.js';
import { makeFixtureHome, type FixtureHome } from '../../../../testing/fixture-home.js';
import { planFromClaudeFixture } from '../../../../testing/continue-plan.js';
import { writerContract, writerEnv } from '../../../../testing/continue-writer-suite.js';
import { qwenProjectFolder, qwenWriter } from './qwen-writer.js';

describe('Qwen Code native writer', () => {
  writerContract({ writer: qwenWriter, agent: 'qwen', adapter: (roots) => createQwenAdapter(roots), storeDir: (home) => path.join(home, '.qwen', 'projects') });

  let fx: FixtureHome;
  beforeEach(() => (fx = makeFixtureHome()));
  afterEach(() => fx.cleanup());

  it('sanitizes the cwd as Qwen does and puts the cwd in the first record, one uuid chain, the title last', async () => {
    expect(qwenProjectFolder('/home/ana/my.app_2')).toBe('-home-ana-my-app-2');
    const cwd = path.join(path.dirname(fx.home), 'proj');
    fs.mkdirSync(cwd);
    const plan = await planFromClaudeFixture(fx.home, 'qwen', cwd);
    const staged = await qwenWriter.stage(plan, writerEnv('qwen', fx.env, fx.home), path.join(path.dirname(fx.home), 'stg'));
    expect(staged.nativeId).toMatch(/^[0-9a-f-]{36}$/);
    const records = fs.readFileSync(staged.files[0]!.stagedPath, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(records[0]).toMatchObject({ cwd, parentUuid: null, type: 'user', sessionId: staged.nativeId });
    records.slice(1).forEach((r, i) => expect(r.parentUuid).toBe(records[i]!.uuid));
    expect(records.at(-1)).toMatchObject({ type: 'system', subtype: 'custom_title', systemPayload: { customTitle: plan.title } });
  });

  it('honours QWEN_RUNTIME_DIR over QWEN_HOME', async () => {
    const runtime = path.join(path.dirname(fx.home), 'rt');
    const env = writerEnv('qwen', { ...fx.env, QWEN_HOME: path.join(path.dirname(fx.home), 'qh'), QWEN_RUNTIME_DIR: runtime }, fx.home);
    const cwd = path.join(path.dirname(fx.home), 'proj');
    fs.mkdirSync(cwd);
    const staged = await qwenWriter.stage(await planFromClaudeFixture(fx.home, 'qwen', cwd), env, path.join(path.dirname(fx.home), 'stg'));
    expect(staged.files[0]!.finalPath.startsWith(path.join(runtime, 'projects', qwenProjectFolder(cwd), 'chats'))).toBe(true);
  });
});
