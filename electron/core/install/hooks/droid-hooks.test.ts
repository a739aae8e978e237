/**
 * `baton hooks install --agent droid`: Factory Droid reads user hooks from ~/.factory/hooks.json
 * (the events object itself) and, only while there is no hooks.json, from the `hooks` key of
 * ~/.factory/settings.json. Baton writes where Droid reads, never shadowing the user's hooks, and
 * gives each file back byte for byte.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../../../testing/fixture-home.js';
import type { Environment } from '../../paths.js';
import { hooksStatus, installHooks, uninstallHooks, type HooksOptions } from './hooks-installer.js';

const RUNTIME = { node: '/opt/node/bin/node', script: '/home/u/baton/bin/baton.mjs' };
// As Droid 0.225.2 writes them (2-space JSON, no trailing newline).
const SETTINGS = `{
  "sessionDefaultSettings": {
    "model": "custom:my-model"
  },
  "hooks": {
    "PostToolUse": [
      {
        "matcher": "Create",
        "hooks": [
          {
            "type": "command",
            "command": "prettier --write"
          }
        ]
      }
    ]
  }
}`;
const HOOKS_JSON = `{
  "SessionStart": [
    {
      "hooks": [
        {
          "type": "command",
          "command": "echo hello"
        }
      ]
    }
  ],
  "hooksDisabled": false
}`;

type Events = Record<string, { hooks: { command: string; timeout?: number }[] }[]>;

let tmp: { dir: string; cleanup(): void };
let environment: Environment;
let options: HooksOptions;
beforeEach(() => {
  tmp = makeTempDir();
  environment = { env: {}, platform: 'linux', home: path.join(tmp.dir, 'home') };
  options = { agent: 'droid', environment, runtime: RUNTIME, dataDir: path.join(tmp.dir, 'baton') };
});
afterEach(() => tmp.cleanup());

const factory = (name: string) => path.join(environment.home, '.factory', name);
function write(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

describe('Factory Droid hooks', () => {
  it("without a hooks.json: SessionStart and Stop under settings.json's hooks, beside the user's; uninstall gives the bytes back", () => {
    write(factory('settings.json'), SETTINGS);
    const [installed] = installHooks(options);
    expect(installed).toMatchObject({ ok: true, changed: true, file: factory('settings.json') });
    const after = JSON.parse(fs.readFileSync(factory('settings.json'), 'utf8')) as { sessionDefaultSettings: unknown; hooks: Events };
    expect(after.sessionDefaultSettings).toEqual({ model: 'custom:my-model' });
    expect(after.hooks.PostToolUse).toHaveLength(1);
    expect(after.hooks.SessionStart![0]!.hooks[0]).toEqual({ type: 'command', command: "'/opt/node/bin/node' '/home/u/baton/bin/baton.mjs' hook session-start --agent droid", timeout: 10 });
    expect(after.hooks.Stop![0]!.hooks[0]!.command).toContain('hook stop --agent droid');
    expect(after.hooks.PreCompact).toBeUndefined();
    expect(fs.existsSync(factory('hooks.json'))).toBe(false);

    const [status] = hooksStatus(options);
    expect(status).toMatchObject({ agent: 'droid', installed: true, file: factory('settings.json') });
    expect(status!.notes.join(' ')).toMatch(/PreCompact/);

    expect(uninstallHooks(options)[0]).toMatchObject({ ok: true, changed: true });
    expect(fs.readFileSync(factory('settings.json'), 'utf8')).toBe(SETTINGS);
  });

  it('with a hooks.json: the events go at its top level next to the user’s (settings.json is left alone); uninstall gives the bytes back', () => {
    write(factory('settings.json'), SETTINGS);
    write(factory('hooks.json'), HOOKS_JSON);
    const [installed] = installHooks(options);
    expect(installed).toMatchObject({ ok: true, changed: true, file: factory('hooks.json') });
    const after = JSON.parse(fs.readFileSync(factory('hooks.json'), 'utf8')) as Events & { hooksDisabled: boolean };
    expect(after.hooksDisabled).toBe(false);
    expect(after.SessionStart!.map((g) => g.hooks[0]!.command)).toEqual(['echo hello', expect.stringContaining('hook session-start --agent droid')]);
    expect(after.Stop![0]!.hooks[0]!.command).toContain('hook stop --agent droid');
    expect(fs.readFileSync(factory('settings.json'), 'utf8')).toBe(SETTINGS);
    expect(hooksStatus(options)[0]).toMatchObject({ installed: true, file: factory('hooks.json') });
    expect(installHooks(options)[0]).toMatchObject({ ok: true, changed: false });

    expect(uninstallHooks(options)[0]).toMatchObject({ ok: true, changed: true });
    expect(fs.readFileSync(factory('hooks.json'), 'utf8')).toBe(HOOKS_JSON);
  });

  it('after the user edits hooks.json, uninstall removes only Baton’s entries and the lists it created', () => {
    write(factory('hooks.json'), HOOKS_JSON);
    installHooks(options);
    fs.writeFileSync(factory('hooks.json'), fs.readFileSync(factory('hooks.json'), 'utf8').replace('"hooksDisabled": false', '"hooksDisabled": true'));
    expect(uninstallHooks(options)[0]).toMatchObject({ ok: true, changed: true });
    expect(JSON.parse(fs.readFileSync(factory('hooks.json'), 'utf8'))).toEqual({ ...(JSON.parse(HOOKS_JSON) as object), hooksDisabled: true });
  });

  it('refuses a hooks.json whose event is not a list, and leaves it as it was', () => {
    const broken = '{ "SessionStart": { "hooks": [] } }';
    write(factory('hooks.json'), broken);
    const [result] = installHooks(options);
    expect(result).toMatchObject({ ok: false, changed: false });
    expect(result!.message).toMatch(/SessionStart" is not a list/);
    expect(fs.readFileSync(factory('hooks.json'), 'utf8')).toBe(broken);
  });

  it('creates settings.json when Droid has no config yet, and removes it again on uninstall; FACTORY_HOME_OVERRIDE moves it', () => {
    environment.env.FACTORY_HOME_OVERRIDE = path.join(tmp.dir, 'fh');
    const [installed] = installHooks(options);
    expect(installed).toMatchObject({ ok: true, changed: true, file: path.join(tmp.dir, 'fh', '.factory', 'settings.json') });
    expect(uninstallHooks(options)[0]).toMatchObject({ ok: true, changed: true });
    expect(fs.existsSync(installed!.file)).toBe(false);
  });
});
