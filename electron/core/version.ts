import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
/** The version in package.json, read once (works from source and from the compiled dist/). */
export const BATON_VERSION: string = (() => {
  for (const candidate of ['../../package.json', '../../../package.json']) {
    try {
      const pkg = require(candidate) as { name?: string; version?: string };
      if (pkg.name === 'baton' && pkg.version) return pkg.version;
    } catch {
      // try the next location
    }
  }
  return '0.0.0';
})();
