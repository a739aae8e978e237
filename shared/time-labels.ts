/** Compact "how long ago" labels for session rows, the tray menu and notifications. */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `iso` relative to `now`: "just now", "5m ago", "3h ago", "yesterday", "4d ago", "Mar 3", "Mar 3, 2024". */
export function relativeTime(iso: string | null | undefined, now: number = Date.now()): string {
  if (!iso) return '—';
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return '—';
  const diff = now - then;
  // Clock skew between the agent and this machine: a few minutes "in the future" is still now.
  if (diff < MINUTE) return diff < -5 * MINUTE ? absoluteDate(then, now) : 'just now';
  if (diff < HOUR) return `${Math.floor(diff / MINUTE)}m ago`;
  if (diff < DAY) return `${Math.floor(diff / HOUR)}h ago`;
  if (diff < 2 * DAY) return 'yesterday';
  if (diff < 7 * DAY) return `${Math.floor(diff / DAY)}d ago`;
  return absoluteDate(then, now);
}

function absoluteDate(then: number, now: number): string {
  const date = new Date(then);
  const label = `${MONTHS[date.getMonth()]} ${date.getDate()}`;
  return date.getFullYear() === new Date(now).getFullYear() ? label : `${label}, ${date.getFullYear()}`;
}

/** Full local timestamp for tooltips. */
export function fullTime(iso: string | null | undefined): string {
  if (!iso) return 'unknown time';
  const then = Date.parse(iso);
  return Number.isNaN(then) ? iso : new Date(then).toLocaleString();
}
