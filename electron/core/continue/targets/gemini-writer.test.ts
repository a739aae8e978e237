import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGeminiAdapter } from '../../sources/gemini/gemini-adapter.js';
import { makeFixtureHome, type FixtureHome } from '../../../../testing/fixture-home.js';
import { planFromClaudeFixture } from '../../../../testing/continue-plan.js';
import { fakeBinDir, writerContract, writerEnv } from '../../../../testing/continue-writer-suite.js';
import { geminiChatFileName, geminiWriter } from './gemini-writer.js';
import { slugify } from './gemini-projects.js';

describe('Gemini CLI native writer', () => {
  writerContract({ writer: geminiWriter, agent: 'gemini', adapter: (roots) => createGeminiAdapter(roots), storeDir: (home) => path.join(home, '.gemini', 'tmp') });

  let fx: FixtureHome;
  beforeEach(() => (fx = makeFixtureHome()));
  afterEach(() => fx.cleanup());

  it('names the file session-<UTC minute>-<id8>.jsonl and slugs like the CLI', () => {
    expect(geminiChatFileName('2026-11-24T17:48:22.721Z', '6e2e2325-4a40-41a2-b26e-51b63db42288')).toBe('session-2026-11-24T17-48-6e2e2325.jsonl');
    expect(slugify('My App_v2')).toBe('my-app-v2');
    expect(slugify('!!!')).toBe('project');
  });

  it('uses the slug projects.json has for a known folder and registers a new folder as gemini would', async () => {
    const gdir = path.join(fx.home, '.gemini');
    const env = writerEnv('gemini', fx.env, fx.home);
    const staging = path.join(path.dirname(fx.home), 'staging');
    // A folder whose basename slug is taken by another project gets the next free one.
    const other = path.join(path.dirname(fx.home), 'elsewhere', 'demo-app');
    fs.mkdirSync(other, { recursive: true });
    const plan = await planFromClaudeFixture(fx.home, 'gemini', other);
    const staged = await geminiWriter.stage(plan, env, staging);
    expect(staged.files[0]!.finalPath.startsWith(path.join(gdir, 'tmp', 'demo-app-1', 'chats') + path.sep)).toBe(true);
    const result = await geminiWriter.commit(staged, plan, env);
    expect(JSON.parse(fs.readFileSync(path.join(gdir, 'projects.json'), 'utf8')).projects[other]).toBe('demo-app-1');
    expect(fs.readFileSync(path.join(gdir, 'tmp', 'demo-app-1', '.project_root'), 'utf8')).toBe(other);
    expect(fs.readFileSync(path.join(gdir, 'history', 'demo-app-1', '.project_root'), 'utf8')).toBe(other);
    expect(result.warnings.join(' ')).toMatch(/registered .* as Gemini CLI project "demo-app-1"/);
    expect(result.resume).toEqual(['gemini', '--resume', staged.nativeId]);

    // The registered fixture project keeps its slug and gets no new entry.
    const known = await planFromClaudeFixture(fx.home, 'gemini', '/home/ana/projects/demo-app');
    const again = await geminiWriter.stage(known, env, path.join(staging, 'known'));
    expect(path.relative(gdir, again.files[0]!.finalPath).split(path.sep).slice(0, 2)).toEqual(['tmp', 'demo-app']);
    expect(again.extra?.registered).toBe(true);
  });

  it('check refuses while a running gemini holds the projects.json lock', async () => {
    const withBin = { ...fx.env, PATH: fakeBinDir(path.dirname(fx.home), 'gemini', '0.61.0') };
    fs.mkdirSync(path.join(fx.home, '.gemini', 'projects.json.lock'));
    expect(await geminiWriter.check(writerEnv('gemini', withBin, fx.home))).toMatchObject({ ok: false, reason: 'locked' });
  });

  it('honours GEMINI_CLI_HOME', async () => {
    const alt = path.join(path.dirname(fx.home), 'alt');
    fs.mkdirSync(path.join(alt, '.gemini'), { recursive: true });
    const env = writerEnv('gemini', { ...fx.env, GEMINI_CLI_HOME: alt }, fx.home);
    const cwd = path.join(path.dirname(fx.home), 'proj');
    fs.mkdirSync(cwd);
    const staged = await geminiWriter.stage(await planFromClaudeFixture(fx.home, 'gemini', cwd), env, path.join(path.dirname(fx.home), 'stg'));
    expect(staged.files[0]!.finalPath.startsWith(path.join(alt, '.gemini', 'tmp', 'proj', 'chats'))).toBe(true);
  });
});
