/** The limit hits under `baton usage --by session`: which agent stopped, in which session, when, and when it resets. */
import type { LimitHit } from '../../../shared/limits.js';
import { AGENT_LABELS } from '../../../shared/model.js';
import { formatTable } from './table.js';

const KIND: Record<LimitHit['kind'], string> = { usage_limit: 'usage limit', rate_limit: 'rate limit', quota: 'quota' };

/** Local "YYYY-MM-DD HH:MM" (the user's clock, as the tray and notices show times). */
export function localMinute(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

/** A table of the hits, newest first; empty text when there are none. */
export function limitHitsTable(hits: readonly LimitHit[]): string {
  if (hits.length === 0) return '';
  const sorted = [...hits].sort((a, b) => (b.at ?? '').localeCompare(a.at ?? ''));
  const rows = sorted.map((h) => [
    AGENT_LABELS[h.agent],
    h.session.slice(0, 22),
    h.at ? localMinute(h.at) : 'unknown',
    h.resetsAt ? localMinute(h.resetsAt) : 'not recorded',
    KIND[h.kind] + (h.window ? ` (${h.window})` : ''),
  ]);
  return `\nLimit hits:\n${formatTable(['AGENT', 'SESSION', 'WHEN', 'RESETS', 'KIND'], rows)}`;
}
