import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../../../testing/fixture-home.js';
import type { Environment } from '../../paths.js';
import { hasBatonNpmrc, installOpencodeNpmrc, uninstallOpencodeNpmrc, withBatonNpmrc, withoutBatonNpmrc } from './opencode-npmrc.js';

let tmp: { dir: string; cleanup(): void };
let environment: Environment;
beforeEach(() => {
  tmp = makeTempDir('baton-npmrc-');
  environment = { env: {}, platform: 'linux', home: tmp.dir };
});
afterEach(() => tmp.cleanup());

const dir = () => path.join(tmp.dir, '.config', 'opencode');

describe('the .npmrc line that keeps offline OpenCode starts fast', () => {
  it('is added to a user .npmrc and removed again byte for byte', () => {
    fs.mkdirSync(dir(), { recursive: true });
    const user = '; my registry\r\nregistry=https://npm.example.com/\r\n';
    fs.writeFileSync(path.join(dir(), '.npmrc'), user);
    const r = installOpencodeNpmrc({ environment });
    expect(r.changed).toBe(true);
    const text = fs.readFileSync(path.join(dir(), '.npmrc'), 'utf8');
    expect(text.startsWith(user)).toBe(true);
    expect(text).toContain('fetch-retries=0\r\n');
    expect(hasBatonNpmrc(environment)).toBe(true);
    expect(installOpencodeNpmrc({ environment }).changed).toBe(false);
    uninstallOpencodeNpmrc({ environment });
    expect(fs.readFileSync(path.join(dir(), '.npmrc'), 'utf8')).toBe(user);
  });

  it('leaves a user fetch-retries alone', () => {
    expect(withBatonNpmrc('fetch-retries=5\n')).toBe('fetch-retries=5\n');
    expect(withoutBatonNpmrc('fetch-retries=5\n')).toBe('fetch-retries=5\n');
  });

  it('creates the file, and node_modules so npm reads the folder\'s .npmrc; uninstall removes the file it made', () => {
    installOpencodeNpmrc({ environment });
    expect(fs.existsSync(path.join(dir(), 'node_modules'))).toBe(true);
    uninstallOpencodeNpmrc({ environment });
    expect(fs.existsSync(path.join(dir(), '.npmrc'))).toBe(false);
  });

  it('a dry run writes nothing', () => {
    const r = installOpencodeNpmrc({ environment, dryRun: true });
    expect(r.diff).toContain('+fetch-retries=0');
    expect(fs.existsSync(path.join(dir(), '.npmrc'))).toBe(false);
  });
});
