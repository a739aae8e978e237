/**
 * The tray app in the real Electron runtime: window security, the preload bridge over IPC, the
 * app scheme's CSP, the global hotkey's registration state, the tray menu and single instance.
 * Skipped, with the reason, where the runtime is absent: electron's npm package downloads it
 * lazily from GitHub, and machines without internet never get it (see electron/start-mode.ts).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { _electron as electron, expect, test, type ElectronApplication, type Page } from '@playwright/test';
import { makeFixtureHome, type FixtureHome } from '../../electron/core/testing/fixture-home.js';
import { freePort } from '../support/baton-server.js';
import type { DesktopStatus } from '../../shared/api-types.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const electronDir = path.join(root, 'node_modules', 'electron');

function electronBinary(): { binary: string | null; reason: string } {
  const pathTxt = path.join(electronDir, 'path.txt');
  if (!fs.existsSync(pathTxt)) return { binary: null, reason: 'Electron runtime not installed (node_modules/electron/path.txt missing: the runtime is downloaded lazily and needs internet)' };
  const binary = path.join(electronDir, 'dist', fs.readFileSync(pathTxt, 'utf8').trim());
  if (!fs.existsSync(binary)) return { binary: null, reason: `Electron runtime missing at ${binary}` };
  if (process.platform === 'linux' && !process.env.DISPLAY && !fs.existsSync('/usr/bin/Xvfb')) return { binary: null, reason: 'no DISPLAY and no Xvfb to provide one' };
  return { binary, reason: '' };
}

const { binary, reason } = electronBinary();
test.skip(!binary, reason);

let xvfb: ChildProcess | null = null;
let display = process.env.DISPLAY ?? '';

test.beforeAll(async () => {
  // `npm run test:e2e` builds only the renderer; the main process and preload are built here.
  execFileSync('npm', ['run', 'build:main'], { cwd: root, stdio: 'inherit' });
  if (process.platform === 'linux' && !display) {
    display = `:${80 + (process.pid % 100)}`;
    xvfb = spawn('/usr/bin/Xvfb', [display, '-screen', '0', '1280x800x24', '-nolisten', 'tcp'], { stdio: 'ignore' });
    for (let i = 0; i < 100 && !fs.existsSync(`/tmp/.X11-unix/X${display.slice(1)}`); i++) await new Promise((r) => setTimeout(r, 50));
  }
});

test.afterAll(() => {
  xvfb?.kill();
});

interface Launched {
  app: ElectronApplication;
  window: Page;
  home: FixtureHome;
  env: NodeJS.ProcessEnv;
}

async function launch(settings: Record<string, unknown> = {}): Promise<Launched> {
  const home = makeFixtureHome();
  const batonHome = home.env.BATON_HOME ?? path.join(path.dirname(home.home), 'baton');
  fs.mkdirSync(batonHome, { recursive: true });
  fs.writeFileSync(path.join(batonHome, 'settings.json'), JSON.stringify({ port: await freePort(), ...settings }));
  const env = { ...process.env, ...home.env, HOME: home.home, BATON_HOME: batonHome, BATON_E2E: '1', DISPLAY: display };
  const app = await electron.launch({
    executablePath: binary!,
    args: [root, `--user-data-dir=${path.join(batonHome, 'electron')}`, '--no-sandbox'],
    env: env as Record<string, string>,
  });
  const window = await app.firstWindow();
  await window.waitForLoadState('domcontentloaded');
  return { app, window, home, env };
}

async function close(launched: Launched) {
  await launched.app.close();
  launched.home.cleanup();
}

function invoke<T>(window: Page, method: string, input: unknown = {}): Promise<T> {
  return window.evaluate(([m, i]) => (window as unknown as { baton: { invoke(m: string, i: unknown): Promise<unknown> } }).baton.invoke(m, i), [method, input] as const) as Promise<T>;
}

test('the window is locked down and served from the app scheme with a CSP', async () => {
  const launched = await launch();
  try {
    const { app, window } = launched;
    expect(window.url()).toBe('baton-app://ui/index.html');
    // No Node in the page (nodeIntegration off, sandboxed), and only the bridge was exposed.
    expect(await window.evaluate(() => [typeof (globalThis as { require?: unknown }).require, typeof (globalThis as { process?: unknown }).process])).toEqual(['undefined', 'undefined']);
    expect(await window.evaluate(() => Object.keys((window as unknown as { baton: object }).baton).sort())).toEqual(['invoke', 'subscribe', 'transport']);
    const csp = await app.evaluate(async ({ net }) => (await net.fetch('baton-app://ui/index.html')).headers.get('content-security-policy'));
    expect(csp).toContain("script-src 'self'");
  } finally {
    await close(launched);
  }
});

test('the preload bridge carries the contract; unknown methods are refused', async () => {
  const launched = await launch();
  try {
    const { window } = launched;
    const info = await invoke<{ url: string }>(window, 'mcpInfo');
    expect(info.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const error = await window.evaluate(() =>
      (window as unknown as { baton: { invoke(m: string, i: unknown): Promise<unknown> } }).baton.invoke('dropTables', {}).then(
        () => null,
        (e: unknown) => e,
      ),
    );
    expect(error).toMatchObject({ error: { code: 'not_found' } });
  } finally {
    await close(launched);
  }
});

test('desktop status: MCP server running, hotkey registration state, re-registered on change', async () => {
  const launched = await launch();
  try {
    const { window } = launched;
    const status = await invoke<DesktopStatus>(window, 'desktopStatus');
    expect(status.mode).toBe('desktop');
    expect(status.server?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(status.hotkey?.accelerator).toBe('CommandOrControl+Shift+B');
    // On a bare X server the key may be grabbable or not; either way the state says which, and why.
    expect(status.hotkey?.registered || Boolean(status.hotkey?.error)).toBe(true);

    await invoke(window, 'updateSettings', { hotkey: 'Shift+B' });
    const invalid = await invoke<DesktopStatus>(window, 'desktopStatus');
    expect(invalid.hotkey).toMatchObject({ accelerator: 'Shift+B', registered: false, error: expect.stringContaining('not valid') });
  } finally {
    await close(launched);
  }
});

test('a busy port is reported and the app keeps running', async () => {
  const net = await import('node:net');
  const blocker = net.createServer();
  const port = await freePort();
  await new Promise<void>((r) => blocker.listen(port, '127.0.0.1', () => r()));
  const launched = await launch({ port });
  try {
    const status = await invoke<DesktopStatus>(launched.window, 'desktopStatus');
    expect(status.server).toMatchObject({ url: null, error: expect.stringContaining(`${port}`) });
    expect(await invoke(launched.window, 'health')).toMatchObject({ ok: true });
  } finally {
    await close(launched);
    blocker.close();
  }
});

test('the tray menu lists recent sessions and the commands', async () => {
  const launched = await launch();
  try {
    const { app } = launched;
    await expect
      .poll(async () => app.evaluate(async () => ((await (globalThis as unknown as { batonApp: { trayModel(): Promise<{ sessions: unknown[] }> } }).batonApp.trayModel()).sessions.length)), { timeout: 30_000 })
      .toBeGreaterThan(0);
  } finally {
    await close(launched);
  }
});

test('a second launch exits and focuses the running popover', async () => {
  const launched = await launch();
  try {
    const { app, env } = launched;
    expect(await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]!.isVisible())).toBe(false);
    const userData = (await app.evaluate(({ app: a }) => a.getPath('userData')));
    const second = spawn(binary!, [root, `--user-data-dir=${userData}`, '--no-sandbox'], { env, stdio: 'ignore' });
    const code = await new Promise<number | null>((resolve) => second.on('exit', resolve));
    expect(code).toBe(0);
    await expect.poll(() => app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]!.isVisible())).toBe(true);
  } finally {
    await close(launched);
  }
});
