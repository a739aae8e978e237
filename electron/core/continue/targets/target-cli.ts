/**
 * Is a target's CLI installed, and which version: found on the PATH of the environment Baton runs
 * the target in (the same lookup a shell would do), version from `<bin> --version`.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Environment } from '../../paths.js';

export function findOnPath(bin: string, environment: Environment): string | null {
  const dirs = (environment.env.PATH ?? '').split(path.delimiter).filter(Boolean);
  const exts = environment.platform === 'win32' ? (environment.env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';') : [''];
  for (const dir of dirs) {
    for (const ext of exts) {
      const full = path.join(dir, bin + ext);
      try {
        const st = fs.statSync(full);
        if (st.isFile()) {
          if (environment.platform !== 'win32') fs.accessSync(full, fs.constants.X_OK);
          return full;
        }
      } catch {
        /* not here */
      }
    }
  }
  return null;
}

/** The first x.y.z in `<bin> --version`, or null when it prints none within the time limit. */
export function cliVersion(binPath: string, environment: Environment, timeoutMs = 20_000): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(binPath, ['--version'], { env: environment.env, timeout: timeoutMs, cwd: environment.home }, (_err, stdout, stderr) => {
      const m = /(\d+\.\d+\.\d+)/.exec(`${stdout}\n${stderr}`);
      resolve(m ? m[1]! : null);
    });
  });
}

export function isDirectory(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}
