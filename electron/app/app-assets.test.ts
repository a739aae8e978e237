import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appFileFor } from './app-assets.js';

let dir: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'baton-assets-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html>');
  fs.writeFileSync(path.join(dir, 'assets', 'app.js'), '');
  fs.writeFileSync(path.join(os.tmpdir(), 'baton-assets-secret.txt'), 'secret');
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('appFileFor', () => {
  it('serves assets and falls back to index.html for client-side routes', () => {
    expect(appFileFor(dir, 'baton-app://ui/assets/app.js')).toBe(path.join(dir, 'assets', 'app.js'));
    expect(appFileFor(dir, 'baton-app://ui/')).toBe(path.join(dir, 'index.html'));
    expect(appFileFor(dir, 'baton-app://ui/settings')).toBe(path.join(dir, 'index.html'));
  });

  it('404s missing assets, other hosts, other schemes and traversal', () => {
    expect(appFileFor(dir, 'baton-app://ui/assets/missing.js')).toBeNull();
    expect(appFileFor(dir, 'baton-app://other/index.html')).toBeNull();
    expect(appFileFor(dir, 'file:///etc/passwd')).toBeNull();
    expect(appFileFor(dir, '::not a url')).toBeNull();
  });

  it('never leaves the renderer folder', () => {
    expect(appFileFor(dir, 'baton-app://ui/..%2f..%2fbaton-assets-secret.txt')).toBeNull();
    // Clamped to the root: an extension-less path becomes the app's index.html, nothing outside.
    expect(appFileFor(dir, 'baton-app://ui/%2e%2e/%2e%2e/etc/passwd')).toBe(path.join(dir, 'index.html'));
  });
});
