/**
 * Runs `fn` at most once per `intervalMs`: the first call runs at once, calls during the interval
 * fold into one trailing run. Used to refresh the tray menu on bursts of sessions-changed events.
 */
export function throttle(fn: () => void, intervalMs: number): { (): void; cancel(): void } {
  let last = -Infinity;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const run = () => {
    last = Date.now();
    timer = null;
    fn();
  };
  const trigger = () => {
    if (timer) return;
    const wait = last + intervalMs - Date.now();
    if (wait <= 0) run();
    else timer = setTimeout(run, wait);
  };
  trigger.cancel = () => {
    if (timer) clearTimeout(timer);
    timer = null;
  };
  return trigger;
}
