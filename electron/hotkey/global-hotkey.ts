/**
 * Keeps one global hotkey registered as the setting changes. Written against a minimal registry
 * (Electron's globalShortcut has this shape) so registration outcomes are testable without Electron.
 */
import type { DesktopStatus } from '../../shared/api-types.js';
import { displayAccelerator, parseAccelerator } from './hotkey.js';

export type HotkeyStatus = NonNullable<DesktopStatus['hotkey']>;

export interface ShortcutRegistry {
  /** False when another application (or the OS) already owns the combination. */
  register(accelerator: string, callback: () => void): boolean;
  unregister(accelerator: string): void;
}

export class GlobalHotkey {
  private registered: string | null = null;

  constructor(
    private readonly registry: ShortcutRegistry,
    private readonly platform: NodeJS.Platform,
    private readonly onPress: () => void,
  ) {}

  /** Registers `text` (replacing the previous hotkey) and says how it went. */
  apply(text: string): HotkeyStatus {
    this.dispose();
    const parsed = parseAccelerator(text);
    if (!parsed.ok) return { accelerator: text, display: null, registered: false, error: `The hotkey "${text}" is not valid: ${parsed.error}` };
    const display = displayAccelerator(parsed.accelerator, this.platform);
    let ok: boolean;
    try {
      ok = this.registry.register(parsed.normalized, this.onPress);
    } catch (err) {
      return { accelerator: text, display, registered: false, error: `The hotkey ${display} could not be registered: ${(err as Error).message}` };
    }
    if (!ok) {
      return { accelerator: text, display, registered: false, error: `The hotkey ${display} is taken by another application or the system. Choose another one in Settings.` };
    }
    this.registered = parsed.normalized;
    return { accelerator: text, display, registered: true, error: null };
  }

  /** The accelerator currently registered (normalized), for the tray menu. */
  current(): string | null {
    return this.registered;
  }

  dispose(): void {
    if (this.registered) this.registry.unregister(this.registered);
    this.registered = null;
  }
}
