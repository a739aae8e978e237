/**
 * Electron main process: the tray app. Thin glue around the same core as `baton serve`: one
 * instance, the core and its local server (MCP), the contract over IPC, the popover window, the
 * tray menu, the global hotkey and launch at login. Logic lives in the pure modules it imports.
 */
import { app, dialog, globalShortcut, ipcMain, type BrowserWindow } from 'electron';
import fs from 'node:fs';
import path from 'node:path';
import { IPC_EVENT_CHANNEL, parseApiInput } from '../shared/contract.js';
import type { ApiEvent } from '../shared/api-types.js';
import type { Settings } from '../shared/settings.js';
import { createBatonCore, type BatonCore } from './core/service.js';
import { batonDataDir, currentEnvironment } from './core/paths.js';
import { rendererDistDir, startLocalServer, type LocalServer } from './core/local-server.js';
import { APP_ORIGIN, APP_URL, registerAppScheme, serveApp } from './app/app-protocol.js';
import { preloadPath } from './app-paths.js';
import { bindApiIpc, isSameOrigin } from './app/ipc.js';
import { createPopoverWindow, showPopover, togglePopover, whilePopoverHeld } from './window/window.js';
import { TrayController } from './tray/tray.js';
import type { TrayAction, TrayMenuModel } from './tray/tray-menu.js';
import { GlobalHotkey } from './hotkey/global-hotkey.js';
import { applyLoginItem } from './login-item/login-item.js';
import { AGENT_LABELS } from '../shared/model.js';
import { copyHotkeyBrief, copySessionBrief, handOffFromAlert, latestSessionId } from './clipboard/brief-copy.js';
import { createFolderPicker } from './window/folder-picker.js';
import { notify, notifyWithAction } from './app/notifications.js';

registerAppScheme();

function fileLogger(): (line: string) => void {
  const dataDir = batonDataDir(currentEnvironment());
  const file = path.join(dataDir, 'baton.log');
  return (line: string) => {
    const stamped = `${new Date().toISOString()} ${line}\n`;
    process.stderr.write(stamped);
    try {
      fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
      fs.appendFileSync(file, stamped);
    } catch {
      // Logging must never take the app down.
    }
  };
}

class BatonApp {
  private core!: BatonCore;
  private server: LocalServer | null = null;
  private window!: BrowserWindow;
  private tray!: TrayController;
  private hotkey!: GlobalHotkey;
  private disposers: (() => void)[] = [];

  async start(): Promise<void> {
    if (process.platform === 'darwin') app.dock?.hide();
    this.core = await createBatonCore({ log: fileLogger() });
    const { core } = this;

    await this.startServer();
    serveApp(rendererDistDir());
    this.disposers.push(bindApiIpc(ipcMain, core.api, { isTrustedSender: (url) => isSameOrigin(url, APP_ORIGIN), log: core.log }));

    this.window = createPopoverWindow(preloadPath());
    void this.window.loadURL(APP_URL);
    // "Browse…" for store paths: a dialog attached to the popover, which stays open behind it.
    const win = this.window;
    core.desktop.setFolderPicker(createFolderPicker((options) => whilePopoverHeld(win, () => dialog.showOpenDialog(win, options))));
    this.disposers.push(core.events.subscribe((event) => this.sendToWindow(event)));

    this.hotkey = new GlobalHotkey(globalShortcut, process.platform, () => void copyHotkeyBrief(core));
    this.tray = new TrayController({
      loadModel: () => this.trayModel(),
      onAction: (action) => void this.onTrayAction(action),
      onLeftClick: () => togglePopover(this.window, this.tray.tray),
      log: core.log,
    });

    this.applySettings(core.settings.get(), null);
    this.disposers.push(core.settings.onChange((next, previous) => this.applySettings(next, previous)));
    this.disposers.push(
      core.events.subscribe((event) => {
        if (event.type === 'sessions-changed' || event.type === 'index-progress') this.tray.refresh();
        // Baton carried a session on by itself: say what it did (the notice shows it in the UI too).
        if (event.type === 'auto-continue') {
          notify(event.run.outcome === 'opened' ? 'Baton carried on' : 'Baton could not carry on', event.run.message);
          this.tray.refresh();
        }
        if (event.type === 'usage-alert') {
          const { alert } = event;
          // A limit that reset is news, not a choice: a plain notification.
          if (alert.kind === 'reset') {
            notify('Baton', alert.message);
            return;
          }
          const target = alert.suggestedTarget;
          const label = target ? `Hand off to ${AGENT_LABELS[target]}` : 'Copy the brief';
          notifyWithAction('Baton', alert.message, label, () => void (target ? handOffFromAlert(core, alert.session, target) : copySessionBrief(core, alert.session, 'generic')));
        }
      }),
    );
    await this.tray.rebuild();
    await core.start();
    this.tray.refresh();
  }

  /** The MCP endpoint; a busy port is reported (notification, notice, settings) and the app keeps running. */
  private async startServer(): Promise<void> {
    try {
      this.server = await startLocalServer(this.core);
      this.core.desktop.update({ server: { url: this.server.url, error: null } });
    } catch (err) {
      const message = `MCP endpoint not started: ${(err as Error).message}`;
      this.core.log(message);
      this.core.desktop.update({ server: { url: null, error: message } });
      this.core.events.emit({ type: 'notice', level: 'error', message });
      notify('Baton: MCP endpoint not started', (err as Error).message);
    }
  }

  private applySettings(next: Settings, previous: Settings | null): void {
    const { core } = this;
    if (!previous || previous.hotkey !== next.hotkey) {
      const status = this.hotkey.apply(next.hotkey);
      core.desktop.update({ hotkey: status });
      if (status.error) {
        core.log(status.error);
        core.events.emit({ type: 'notice', level: 'warning', message: status.error });
        notify('Baton: hotkey not available', status.error);
      }
      this.tray.refresh();
    }
    if (!previous || previous.launchAtLogin !== next.launchAtLogin) {
      const status = applyLoginItem(next.launchAtLogin);
      core.desktop.update({ launchAtLogin: status });
      if (status.error) core.events.emit({ type: 'notice', level: 'warning', message: status.error });
    }
  }

  /** The tray menu's model (public for the Electron e2e specs). */
  async trayModel(): Promise<TrayMenuModel> {
    const page = await this.core.api.listSessions(parseApiInput('listSessions', { limit: 10 }));
    // Usage is extra: a menu without it beats no menu.
    const usage = await this.core.api.usageSummary(parseApiInput('usageSummary', {})).then(
      (summary) => summary.agents,
      (err: unknown) => {
        this.core.log(`tray usage: ${err instanceof Error ? err.message : String(err)}`);
        return [];
      },
    );
    const now = Date.now();
    const handoffs = this.core.userData
      .listHandoffs({ limit: 20 })
      .filter((cp) => cp.handoff && (cp.status === 'received' || (cp.status === 'pending' && Date.parse(cp.handoff.expiresAt) > now)))
      .map((cp) => ({ id: cp.id, target: cp.handoff!.agent, projectDir: cp.handoff!.projectDir, status: cp.status as 'pending' | 'received', receivedBy: cp.handoff!.receivedBy, createdAt: cp.createdAt }));
    return {
      sessions: page.sessions.map((s) => ({ id: s.id, agent: s.agent, title: s.title, cwd: s.cwd, updatedAt: s.updatedAt })),
      handoffs,
      now,
      hotkey: this.hotkey.current(),
      usage,
    };
  }

  private async onTrayAction(action: TrayAction): Promise<void> {
    switch (action.type) {
      case 'copy-session':
        return copySessionBrief(this.core, action.sessionId);
      case 'copy-latest':
        // Same as the hotkey shown next to it: the selected session's brief, else the latest one.
        return copyHotkeyBrief(this.core);
      case 'open':
        return showPopover(this.window, this.tray.tray);
      case 'checkpoint': {
        const sessionId = (await latestSessionId(this.core).catch(() => null)) ?? undefined;
        showPopover(this.window, this.tray.tray);
        return this.sendToWindow({ type: 'navigate', view: 'checkpoint', ...(sessionId ? { sessionId } : {}) });
      }
      case 'settings':
        showPopover(this.window, this.tray.tray);
        return this.sendToWindow({ type: 'navigate', view: 'settings' });
      case 'quit':
        return app.quit();
    }
  }

  private sendToWindow(event: ApiEvent): void {
    if (!this.window.isDestroyed()) this.window.webContents.send(IPC_EVENT_CHANNEL, event);
  }

  focus(): void {
    if (this.window && !this.window.isDestroyed()) showPopover(this.window, this.tray?.tray ?? null);
  }

  async stop(): Promise<void> {
    for (const dispose of this.disposers.reverse()) dispose();
    this.hotkey?.dispose();
    this.tray?.destroy();
    await this.server?.close();
    await this.core?.close();
  }
}

if (!app.requestSingleInstanceLock()) {
  // Another Baton is running; it gets a 'second-instance' event and shows its popover.
  app.quit();
} else {
  const baton = new BatonApp();
  // The Electron e2e specs inspect the running app from the main process.
  if (process.env.BATON_E2E === '1') (globalThis as { batonApp?: BatonApp }).batonApp = baton;
  let stopping = false;
  app.on('second-instance', () => baton.focus());
  // A tray app keeps running with no window open.
  app.on('window-all-closed', () => undefined);
  app.on('before-quit', (event) => {
    if (stopping) return;
    stopping = true;
    event.preventDefault();
    void baton.stop().finally(() => app.exit(0));
  });
  app
    .whenReady()
    .then(() => baton.start())
    .catch((err: unknown) => {
      process.stderr.write(`Baton failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      notify('Baton failed to start', err instanceof Error ? err.message : String(err));
      app.exit(1);
    });
}
