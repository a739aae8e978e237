import { describe, expect, it } from 'vitest';
import { applySettingsPatch, defaultSettings, SettingsPatchSchema } from './settings.js';

describe('SettingsPatchSchema', () => {
  it('keeps absent keys absent, so a patch changes only what it names', () => {
    expect(SettingsPatchSchema.parse({ defaultTarget: 'hermes' })).toEqual({ defaultTarget: 'hermes' });
    expect(SettingsPatchSchema.parse({ agents: { claude: { path: '/x' } } })).toEqual({ agents: { claude: { path: '/x' } } });
    const dark = applySettingsPatch(defaultSettings(), SettingsPatchSchema.parse({ theme: 'dark' }));
    const both = applySettingsPatch(dark, SettingsPatchSchema.parse({ defaultTarget: 'codex' }));
    expect(both).toMatchObject({ theme: 'dark', defaultTarget: 'codex' });
    const moved = applySettingsPatch(both, SettingsPatchSchema.parse({ agents: { claude: { path: '/x' } } }));
    const disabled = applySettingsPatch(moved, SettingsPatchSchema.parse({ agents: { claude: { enabled: false } } }));
    expect(disabled.agents.claude).toEqual({ enabled: false, path: '/x' });
  });

  it('still validates what it names', () => {
    for (const bad of [{ theme: 'purple' }, { briefBudget: 5 }, { agents: { claude: { path: '' } } }, { agents: { nope: {} } }]) {
      expect(SettingsPatchSchema.safeParse(bad).success).toBe(false);
    }
  });
});
