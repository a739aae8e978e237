/**
 * `npm start` chooses between the tray app and headless mode. Electron's npm package downloads
 * its runtime lazily (and would hang offline), so absence is detected from the files the download
 * leaves behind, never by requiring `electron`. Pure: the file system is passed in.
 */
import path from 'node:path';

export interface StartProbe {
  root: string;
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  exists(file: string): boolean;
  readText(file: string): string | null;
  /** Set after one download attempt, so a failed download falls back instead of retrying. */
  downloadFailed?: string;
}

export type StartDecision =
  | { mode: 'electron'; binary: string; main: string }
  /** Run electron's own installer (it downloads the runtime once, ~100 MB), then decide again. */
  | { mode: 'download'; installer: string }
  | { mode: 'headless'; reason: string };

export function decideStartMode(probe: StartProbe): StartDecision {
  const { root, env } = probe;
  if (env.BATON_HEADLESS === '1') return { mode: 'headless', reason: 'BATON_HEADLESS=1 is set.' };
  const pkg = path.join(root, 'node_modules', 'electron');
  if (!probe.exists(path.join(pkg, 'package.json'))) return { mode: 'headless', reason: 'the electron package is not installed.' };
  const main = path.join(root, 'dist', 'electron', 'main.js');
  if (!probe.exists(main)) return { mode: 'headless', reason: 'the Electron main process is not built (run `npm run build`).' };
  // No display, no tray: checked before any download, so a server never fetches a GUI runtime.
  if (probe.platform === 'linux' && !env.DISPLAY && !env.WAYLAND_DISPLAY) {
    return { mode: 'headless', reason: 'there is no display (DISPLAY and WAYLAND_DISPLAY are unset).' };
  }
  // path.txt is written by electron's install script once the runtime is downloaded.
  const relative = probe.readText(path.join(pkg, 'path.txt'))?.trim() || null;
  const override = env.ELECTRON_OVERRIDE_DIST_PATH;
  if (!relative && !override) {
    if (probe.downloadFailed) {
      return { mode: 'headless', reason: `the Electron runtime could not be downloaded (${probe.downloadFailed}); \`npx install-electron\` retries when online.` };
    }
    return { mode: 'download', installer: path.join(pkg, 'install.js') };
  }
  const binary = override ? path.join(override, relative ?? 'electron') : path.join(pkg, 'dist', relative!);
  if (!probe.exists(binary)) return { mode: 'headless', reason: `the Electron runtime is missing (${binary}).` };
  return { mode: 'electron', binary, main };
}

/** The one line printed when falling back. */
export function headlessNotice(reason: string): string {
  return `Baton: starting headless because ${reason.replace(/^./, (c) => c.toLowerCase())}`;
}
