/**
 * The tray / menu-bar icon and its menu. The menu is rebuilt from `buildTrayMenu` (pure) whenever
 * sessions change, throttled. macOS and Windows: left click toggles the popover, right click shows
 * the menu. Linux: trays only show the menu reliably, so the menu is the click target.
 */
import { Menu, Tray, nativeImage, type MenuItemConstructorOptions } from 'electron';
import { buildTrayMenu, type TrayAction, type TrayMenuModel } from './tray-menu.js';
import { throttle } from '../app/throttle.js';
import { iconPath } from '../app-paths.js';

export const TRAY_REFRESH_MS = 2000;

export interface TrayDeps {
  loadModel(): Promise<TrayMenuModel>;
  onAction(action: TrayAction): void;
  onLeftClick(): void;
  log(line: string): void;
}

export function trayIconFile(platform: NodeJS.Platform): string {
  // "Template" images are drawn by macOS in the menu bar's colour (light or dark).
  return iconPath(platform === 'darwin' ? 'trayTemplate.png' : 'tray.png');
}

export class TrayController {
  readonly tray: Tray;
  private menu: Menu | null = null;
  readonly refresh: ReturnType<typeof throttle>;

  constructor(private readonly deps: TrayDeps) {
    const image = nativeImage.createFromPath(trayIconFile(process.platform));
    if (process.platform === 'darwin') image.setTemplateImage(true);
    this.tray = new Tray(image);
    this.tray.setToolTip('Baton');
    if (process.platform !== 'linux') {
      this.tray.on('click', () => deps.onLeftClick());
      this.tray.on('right-click', () => {
        if (this.menu) this.tray.popUpContextMenu(this.menu);
      });
    }
    this.refresh = throttle(() => void this.rebuild(), TRAY_REFRESH_MS);
  }

  async rebuild(): Promise<void> {
    let model: TrayMenuModel;
    try {
      model = await this.deps.loadModel();
    } catch (err) {
      this.deps.log(`tray menu: ${(err as Error).message}`);
      model = { sessions: [], now: Date.now(), hotkey: null, sessionsNote: 'Sessions unavailable' };
    }
    const template: MenuItemConstructorOptions[] = buildTrayMenu(model).map((item) =>
      item.type === 'separator'
        ? { type: 'separator' }
        : {
            label: item.label,
            enabled: item.enabled ?? true,
            toolTip: item.toolTip,
            // The hotkey is global: shown in the menu, never registered as a menu shortcut.
            ...(item.accelerator ? { accelerator: item.accelerator, registerAccelerator: false } : {}),
            click: item.action ? () => this.deps.onAction(item.action!) : undefined,
          },
    );
    this.menu = Menu.buildFromTemplate(template);
    if (process.platform === 'linux') this.tray.setContextMenu(this.menu);
  }

  destroy(): void {
    this.refresh.cancel();
    this.tray.destroy();
  }
}
