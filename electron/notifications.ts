/** Desktop notifications; silently skipped where the OS has no notification service. */
import { Notification } from 'electron';

export function notify(title: string, body: string): void {
  if (!Notification.isSupported()) return;
  new Notification({ title, body, silent: true }).show();
}
