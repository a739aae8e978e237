/** The electron-builder config (build/electron-builder.yml) and the committed icons it points at. */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { createRequire } from 'node:module';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const config = parse(fs.readFileSync(path.join(root, 'build', 'electron-builder.yml'), 'utf8')) as Record<string, Record<string, unknown> & unknown[]>;

/** Width, height and colour type from a PNG's IHDR. */
function pngInfo(file: string) {
  const buf = fs.readFileSync(path.join(root, file));
  expect(buf.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  return { width: buf.readUInt32BE(16), height: buf.readUInt32BE(20), colourType: buf[25] };
}

/** RGBA rows of a non-interlaced 8-bit RGBA PNG written with filter 0 (as build/make-icons.mjs does). */
function pngPixels(file: string): Uint8Array[] {
  const buf = fs.readFileSync(path.join(root, file));
  const width = buf.readUInt32BE(16);
  const idat: Buffer[] = [];
  for (let at = 8; at < buf.length; ) {
    const length = buf.readUInt32BE(at);
    if (buf.toString('ascii', at + 4, at + 8) === 'IDAT') idat.push(buf.subarray(at + 8, at + 8 + length));
    at += length + 12;
  }
  const raw = zlib.inflateSync(Buffer.concat(idat));
  const rows: Uint8Array[] = [];
  for (let at = 0; at < raw.length; at += width * 4 + 1) {
    expect(raw[at]).toBe(0);
    rows.push(raw.subarray(at + 1, at + 1 + width * 4));
  }
  return rows;
}

describe('electron-builder config', () => {
  it('passes electron-builder’s own schema validation', async () => {
    const require = createRequire(import.meta.url);
    const { validateConfiguration } = require('app-builder-lib/out/util/config/config.js') as {
      validateConfiguration(config: unknown, logger: { isEnabled: boolean; add(): void }): Promise<void>;
    };
    await expect(validateConfiguration(config, { isEnabled: false, add: () => undefined })).resolves.toBeUndefined();
    await expect(validateConfiguration({ ...config, mac: { target: 'floppy', nonsense: 1 } }, { isEnabled: false, add: () => undefined })).rejects.toThrow();
  });

  it('names the app and packs the built main, preload and renderer', () => {
    expect(config.appId).toBe('dev.baton.app');
    expect(config.productName).toBe('Baton');
    expect(config.files).toEqual(expect.arrayContaining(['package.json', 'dist/**/*', 'renderer/dist/**/*', 'build/icons/tray*.png']));
    const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { main: string; scripts: Record<string, string> };
    expect(pkg.main).toBe('dist/electron/main.js');
    expect(pkg.scripts.dist).toContain('electron-builder --config build/electron-builder.yml');
    expect(pkg.scripts['build:main']).toContain('electron/preload.vite.config.ts');
  });

  it('keeps better-sqlite3 and the agents\' hook entry outside the asar and rebuilds it for Electron', () => {
    expect(config.asarUnpack).toEqual(['node_modules/better-sqlite3/**/*', 'bin/baton.mjs', 'bin/hook-bundle.mjs', 'dist/hook/**/*']);
    expect(config.npmRebuild).toBe(true);
  });

  it('builds a menu-bar app for macOS (dmg + zip), nsis for Windows, AppImage + deb for Linux', () => {
    expect(config.mac?.target).toEqual(['dmg', 'zip']);
    expect(config.mac?.extendInfo).toEqual({ LSUIElement: true });
    expect(config.win?.target).toEqual(['nsis']);
    expect(config.linux?.target).toEqual(['AppImage', 'deb']);
    expect(config.linux?.maintainer).toBeTruthy();
    expect(config.publish).toBeNull();
  });

  it('points at icons that exist at the sizes each platform needs', () => {
    expect(pngInfo(config.mac?.icon as string)).toMatchObject({ width: 1024, height: 1024 });
    expect(pngInfo(config.win?.icon as string)).toMatchObject({ width: 256, height: 256 });
    for (const size of [256, 512]) expect(pngInfo(`${config.linux?.icon as string}/${size}x${size}.png`)).toMatchObject({ width: size, height: size });
  });

  it('has tray icons: macOS template images at 1x/2x and a PNG for Windows/Linux', () => {
    expect(pngInfo('build/icons/trayTemplate.png')).toEqual({ width: 18, height: 18, colourType: 6 });
    expect(pngInfo('build/icons/trayTemplate@2x.png')).toEqual({ width: 36, height: 36, colourType: 6 });
    expect(pngInfo('build/icons/tray.png')).toMatchObject({ width: 32, height: 32 });
  });

  it('template images are black + alpha only, with a visible glyph', () => {
    for (const file of ['build/icons/trayTemplate.png', 'build/icons/trayTemplate@2x.png']) {
      let opaque = 0;
      for (const row of pngPixels(file)) {
        for (let i = 0; i < row.length; i += 4) {
          expect([row[i], row[i + 1], row[i + 2]]).toEqual([0, 0, 0]);
          if (row[i + 3]! > 128) opaque++;
        }
      }
      expect(opaque).toBeGreaterThan(20);
    }
  });
});
