/**
 * Files Baton ships beside its code (package.json, bin/, integrations/, renderer/dist) are found
 * from the package root, the nearest folder up from this module whose package.json is Baton's.
 * That holds for the sources (electron/core), the compiled dist/electron/core and a packaged
 * app.asar alike, so no module counts `../` levels that change when it moves.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | null = null;

export function packageRoot(): string {
  if (root) return root;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = path.join(dir, 'package.json');
    if (fs.existsSync(manifest) && isBatonManifest(manifest)) return (root = dir);
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`Baton's package.json was not found above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
}

/** A file or folder Baton ships, by its path from the package root. */
export function assetPath(...segments: string[]): string {
  return path.join(packageRoot(), ...segments);
}

function isBatonManifest(file: string): boolean {
  try {
    return (JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: unknown }).name === 'baton';
  } catch {
    return false;
  }
}
