import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDroidAdapter } from '../../sources/droid/droid-adapter.js';
import { makeFixtureHome, type FixtureHome } from '../../../../testing/fixture-home.js';
import { planFromClaudeFixture } from '../../../../testing/continue-plan.js';
import { writerContract, writerEnv } from '../../../../testing/continue-writer-suite.js';
import { droidSessionFolder, droidWriter } from './droid-writer.js';

describe('Factory Droid native writer', () => {
  writerContract({ writer: droidWriter, agent: 'droid', adapter: (roots) => createDroidAdapter(roots), storeDir: (home) => path.join(home, '.factory', 'sessions') });

  let fx: FixtureHome;
  beforeEach(() => (fx = makeFixtureHome()));
  afterEach(() => fx.cleanup());

  it("names the folder as Droid does, starts with session_start (cwd, title), one id/parentId chain of text messages", async () => {
    expect(droidSessionFolder('/home/ana/projects/demo-app')).toBe('-home-ana-projects-demo-app');
    const cwd = path.join(path.dirname(fx.home), 'proj');
    fs.mkdirSync(cwd);
    const plan = await planFromClaudeFixture(fx.home, 'droid', cwd);
    const staged = await droidWriter.stage(plan, writerEnv('droid', fx.env, fx.home), path.join(path.dirname(fx.home), 'stg'));
    expect(staged.nativeId).toMatch(/^[0-9a-f-]{36}$/);
    expect(staged.files[0]!.finalPath).toBe(path.join(fx.home, '.factory', 'sessions', droidSessionFolder(cwd), `${staged.nativeId}.jsonl`));
    const records = fs.readFileSync(staged.files[0]!.stagedPath, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(records[0]).toMatchObject({ type: 'session_start', id: staged.nativeId, cwd, title: plan.title, version: 2 });
    const messages = records.slice(1);
    expect(messages[0]).not.toHaveProperty('parentId');
    messages.slice(1).forEach((m, i) => expect(m.parentId).toBe(messages[i]!.id));
    for (const m of messages) expect(m).toMatchObject({ type: 'message', message: { content: [{ type: 'text' }] } });
  });

  it('writes under FACTORY_HOME_OVERRIDE when set, as Droid does', async () => {
    const override = path.join(path.dirname(fx.home), 'fh');
    fs.mkdirSync(path.join(override, '.factory'), { recursive: true });
    const env = writerEnv('droid', { ...fx.env, FACTORY_HOME_OVERRIDE: override }, fx.home);
    const cwd = path.join(path.dirname(fx.home), 'proj');
    fs.mkdirSync(cwd);
    const staged = await droidWriter.stage(await planFromClaudeFixture(fx.home, 'droid', cwd), env, path.join(path.dirname(fx.home), 'stg'));
    expect(staged.files[0]!.finalPath.startsWith(path.join(override, '.factory', 'sessions'))).toBe(true);
  });
});
