/**
 * Clipboard formats that tell clipboard managers and history a brief is sensitive and transient,
 * where the OS has a convention: macOS nspasteboard.org types, Windows' clipboard-history opt-outs,
 * KDE Klipper's password-manager hint. Written in the same atomic write as the text.
 */

/** Electron's key for a raw platform clipboard format inside a ClipboardItem. */
export function rawFormat(name: string): string {
  return `electron application/osclipboard;format="${name}"`;
}

const DWORD_ZERO = new Uint8Array([0, 0, 0, 0]);
const EMPTY = new Uint8Array(0);
const utf8 = (text: string) => new Uint8Array(new TextEncoder().encode(text));

export interface RawEntry {
  format: string;
  data: Uint8Array<ArrayBuffer>;
}

export function concealedEntries(platform: NodeJS.Platform): RawEntry[] {
  switch (platform) {
    case 'darwin':
      // http://nspasteboard.org: concealed (do not show/keep) and transient (do not record at all).
      return [
        { format: rawFormat('org.nspasteboard.ConcealedType'), data: EMPTY },
        { format: rawFormat('org.nspasteboard.TransientType'), data: EMPTY },
      ];
    case 'win32':
      // Clipboard history and cloud sync honour these (DWORD 0 = do not include).
      return [
        { format: rawFormat('ExcludeClipboardContentFromMonitorProcessing'), data: EMPTY },
        { format: rawFormat('CanIncludeInClipboardHistory'), data: DWORD_ZERO },
        { format: rawFormat('CanUploadToCloudClipboard'), data: DWORD_ZERO },
      ];
    case 'linux':
      return [{ format: 'x-kde-passwordManagerHint', data: utf8('secret') }];
    default:
      return [];
  }
}

/** Everything one ClipboardItem carries for a brief: the text plus the platform's markers. */
export function briefClipboardRecord(text: string, platform: NodeJS.Platform): Record<string, string | Blob> {
  const record: Record<string, string | Blob> = { 'text/plain': text };
  for (const entry of concealedEntries(platform)) record[entry.format] = new Blob([entry.data]);
  return record;
}

export interface ClipboardReader {
  readText(): Promise<string>;
  clear(): void | Promise<void>;
}

/**
 * Clears the clipboard a while after a copy, but only if it still holds what we copied: the user
 * may have copied something else since, which must never be wiped.
 */
export class ClipboardAutoClear {
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly clipboard: ClipboardReader) {}

  /** Replaces any pending clear. `delayMs` ≤ 0 means never. */
  schedule(text: string, delayMs: number, onCleared?: () => void): void {
    this.cancel();
    if (delayMs <= 0) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.clearIfStill(text).then((cleared) => {
        if (cleared) onCleared?.();
      });
    }, delayMs);
    this.timer.unref?.();
  }

  cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  async clearIfStill(text: string): Promise<boolean> {
    const current = await this.clipboard.readText().catch(() => null);
    if (current !== text) return false;
    await this.clipboard.clear();
    return true;
  }
}
