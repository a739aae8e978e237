import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectRecovered, makeFixtureHome, sha256Tree, type FixtureHome } from '../../../../testing/fixture-home.js';
import { MiniIndex } from '../../../../testing/mini-index.js';
import { defaultStoreRoots } from '../../paths.js';
import { createDroidAdapter } from './droid-adapter.js';

const DEMO = ['.factory', 'sessions', '-home-ana-projects-demo-app'];
const THREE_TURNS = '419c8c4a-fd78-4101-91df-7725f3e228c0';
const PARENT = '80da513e-bfa4-40ca-a3a1-fac2d2db2f2c';
const CHILD = '4fb127b8-960c-4c11-90aa-f31ca0e01068';
const COMPRESSED = 'e0ad6717-f2f8-4366-8451-aa0775044754';

describe('Factory Droid adapter on the real fixture store', () => {
  let fx: FixtureHome;
  let root: string;
  beforeEach(() => {
    fx = makeFixtureHome();
    root = path.join(fx.home, '.factory');
  });
  afterEach(() => fx.cleanup());

  it('recovers every session exactly as expected.json lists it, and never writes the store', async () => {
    const before = sha256Tree(root);
    const index = new MiniIndex();
    await index.readAll(createDroidAdapter([root]));
    expectRecovered('droid', index.sessions);
    expect(sha256Tree(root)).toEqual(before);
    expect(index.diagnostics).toEqual([]);
  });

  it('the default root is ~/.factory, and the sessions folder itself works as a root too', async () => {
    expect(defaultStoreRoots('droid', { env: {}, platform: 'linux', home: '/home/ana' })).toEqual(['/home/ana/.factory']);
    // Droid 0.225.2 resolves its home from FACTORY_HOME_OVERRIDE first (sessions, settings and mcp.json move with it).
    expect(defaultStoreRoots('droid', { env: { FACTORY_HOME_OVERRIDE: '/x/fh' }, platform: 'linux', home: '/home/ana' })).toEqual(['/x/fh/.factory']);
    const index = new MiniIndex();
    await index.readAll(createDroidAdapter([path.join(root, 'sessions')]));
    expect(index.sessions.size).toBe(11);
    expect(createDroidAdapter([root]).watchRoots!()).toEqual([path.join(root, 'sessions')]);
  });

  it('keeps the injected context message out of prompts and the transcript; subagent links its caller', async () => {
    const index = new MiniIndex();
    await index.readAll(createDroidAdapter([root]));
    const child = index.sessions.get(`droid:${CHILD}`)!;
    expect(child).toMatchObject({ parentId: `droid:${PARENT}`, parentKind: 'subagent', title: 'Worker: Inspect git history' });
    const texts = index.messages.get(`droid:${THREE_TURNS}`)!.map((m) => m.text);
    expect(texts.some((t) => t.includes('<system-reminder>'))).toBe(false);
    const calls = index.messages.get(`droid:${THREE_TURNS}`)!.filter((m) => m.kind === 'tool_result');
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.every((m) => m.toolName === 'Execute' || m.toolName === 'Create')).toBe(true);
    // A /compress continuation starts from the summary, kept as system text.
    expect(index.messages.get(`droid:${COMPRESSED}`)![0]).toMatchObject({ role: 'system', kind: 'text' });
  });

  it('takes model and token totals from the settings document, re-read only when it changes', async () => {
    const adapter = createDroidAdapter([root]);
    const index = new MiniIndex();
    await index.readAll(adapter);
    const s = index.sessions.get(`droid:${PARENT}`)!;
    expect(s.model).toBe('custom:mock-model');
    expect(s.usage).toMatchObject({ input: 6796, output: 209 });

    // Droid rewrites the settings document with new totals while the transcript stays as it was.
    const settings = path.join(fx.home, ...DEMO, `${PARENT}.settings.json`);
    const doc = JSON.parse(fs.readFileSync(settings, 'utf8')) as { tokenUsage: { inputTokens: number } };
    doc.tokenUsage.inputTokens = 7000;
    fs.writeFileSync(settings, JSON.stringify(doc));
    const unit = (await adapter.listUnits()).find((u) => u.path.endsWith(`${PARENT}.jsonl`))!;
    const batches = await index.read(adapter, unit);
    expect(batches.reduce((n, b) => n + b.bytesRead, 0)).toBe(0); // the transcript is not read again
    expect(index.sessions.get(`droid:${PARENT}`)!.usage.input).toBe(7000);
  });

  it('a settings document caught mid-rewrite keeps its last good content and is reported', async () => {
    const adapter = createDroidAdapter([root]);
    const index = new MiniIndex();
    await index.readAll(adapter);
    const settings = path.join(fx.home, ...DEMO, `${PARENT}.settings.json`);
    fs.writeFileSync(settings, '{"model": "custom:mock-model", "tokenUs');
    await index.readAll(adapter);
    expect(index.sessions.get(`droid:${PARENT}`)!.usage.input).toBe(6796);
    expect(adapter.status().diagnostics.some((d) => d.file === settings && /not valid JSON/.test(d.message))).toBe(true);
  });

  it('a truncated last line and a line of an unknown newer kind: the rest is read, nothing crashes', async () => {
    const file = path.join(fx.home, ...DEMO, `${THREE_TURNS}.jsonl`);
    fs.appendFileSync(file, '{"type":"hologram","id":"x","payload":{"v":99}}\n{"type":"message","id":"half","message":{"role":"user","conte');
    const index = new MiniIndex();
    await index.readAll(createDroidAdapter([root]));
    expectRecovered('droid', index.sessions);
  });
});
