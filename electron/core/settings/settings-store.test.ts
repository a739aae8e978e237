import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SettingsStore } from './settings-store.js';
import { makeTempDir } from '../../../testing/fixture-home.js';

describe('SettingsStore', () => {
  const temps: { cleanup(): void }[] = [];
  const dir = () => {
    const t = makeTempDir();
    temps.push(t);
    return t.dir;
  };
  afterEach(() => temps.splice(0).forEach((t) => t.cleanup()));

  it('starts from defaults and persists patches, merging agents per agent', () => {
    const d = dir();
    const store = new SettingsStore(d);
    expect(store.get().port).toBe(8765);
    store.update({ agents: { claude: { path: '/x/.claude' } }, briefBudget: 9000 });
    const reread = new SettingsStore(d).get();
    expect(reread.agents.claude).toEqual({ enabled: true, path: '/x/.claude' });
    expect(reread.agents.codex).toEqual({ enabled: true, path: null });
    expect(reread.briefBudget).toBe(9000);
    expect(fs.readdirSync(d).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('keeps a corrupt file aside, uses defaults and says so', () => {
    const d = dir();
    fs.writeFileSync(path.join(d, 'settings.json'), '{"port": 80, "theme": ');
    const store = new SettingsStore(d);
    expect(store.get().port).toBe(8765);
    expect(store.warning).toMatch(/kept as .*settings\.json\.bad-/);
    const aside = fs.readdirSync(d).find((f) => f.startsWith('settings.json.bad-'));
    expect(aside).toBeDefined();
    expect(fs.readFileSync(path.join(d, aside ?? ''), 'utf8')).toBe('{"port": 80, "theme": ');
  });

  it('keeps a schema-invalid file aside too, and fills missing keys with defaults', () => {
    const d = dir();
    fs.writeFileSync(path.join(d, 'settings.json'), JSON.stringify({ port: 'eighty' }));
    expect(new SettingsStore(d).warning).toMatch(/port/);
    fs.writeFileSync(path.join(d, 'settings.json'), JSON.stringify({ theme: 'dark', unknownKey: 1 }));
    const partial = new SettingsStore(d);
    expect(partial.warning).toBeNull();
    expect(partial.get()).toMatchObject({ theme: 'dark', port: 8765, redact: true });
  });

  it('rejects invalid patches without touching the file', () => {
    const d = dir();
    const store = new SettingsStore(d);
    store.update({ theme: 'light' });
    expect(() => store.update({ port: 80 })).toThrow();
    expect(new SettingsStore(d).get().theme).toBe('light');
    expect(new SettingsStore(d).get().port).toBe(8765);
  });
});
