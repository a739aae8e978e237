/**
 * User Timing entries for the moments a user waits on (search results shown, the session list
 * loaded): visible in the browser's performance tools and read by the UI benchmark, so nothing
 * test-only has to be exposed on `window`. Only the latest entry of each name is kept.
 */
export function markTiming(name: string, opts: { start?: number; detail: Record<string, unknown> }): void {
  if (typeof performance === 'undefined' || typeof performance.measure !== 'function') return;
  performance.clearMeasures(name);
  performance.measure(name, { start: opts.start ?? performance.now(), end: performance.now(), detail: opts.detail });
}
