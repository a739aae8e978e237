/** Desktop notifications; silently skipped where the OS has no notification service. */
import { Notification } from 'electron';

export function notify(title: string, body: string): void {
  if (!Notification.isSupported()) return;
  new Notification({ title, body, silent: true }).show();
}

/**
 * A notification with one action: a button where the OS offers them (macOS), and a click on the
 * notification itself everywhere, both run `onAction` once.
 */
export function notifyWithAction(title: string, body: string, actionLabel: string, onAction: () => void): void {
  if (!Notification.isSupported()) return;
  const n = new Notification({ title, body, actions: [{ type: 'button', text: actionLabel }] });
  let done = false;
  const run = () => {
    if (done) return;
    done = true;
    onAction();
  };
  n.on('action', run);
  n.on('click', run);
  n.show();
}
