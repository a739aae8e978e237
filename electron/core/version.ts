import fs from 'node:fs';
import { assetPath } from './asset-path.js';

/** The version in package.json, read once (works from source, the compiled dist/ and a package). */
export const BATON_VERSION: string = (() => {
  try {
    const pkg = JSON.parse(fs.readFileSync(assetPath('package.json'), 'utf8')) as { version?: string };
    return pkg.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
})();
