/** The checks every target makes before writing: installed (with its version) and store present. */
import type { WriterCheck, WriterEnv } from '../native-writer.js';
import fs from 'node:fs';
import { cliVersion, findOnPath } from '../writer-support.js';

export function installedWithStore(env: WriterEnv, bin: string, label: string, store: string | undefined): WriterCheck {
  const binPath = findOnPath(bin, env.environment);
  if (!binPath) return { ok: false, reason: 'not_installed', message: `${label} is not installed: no \`${bin}\` on PATH` };
  if (!store || !fs.statSync(store, { throwIfNoEntry: false })?.isDirectory()) {
    return { ok: false, reason: 'store_missing', message: `${label}'s store ${store ?? '(none configured)'} does not exist: run \`${bin}\` once first` };
  }
  return { ok: true, version: cliVersion(binPath, env.environment) };
}
