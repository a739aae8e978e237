import { describe, expect, it } from 'vitest';
import { relativeTime } from './time-labels.js';

const now = Date.parse('2026-06-15T12:00:00Z');
const ago = (ms: number) => new Date(now - ms).toISOString();

describe('relativeTime', () => {
  it('labels recent times compactly', () => {
    expect(relativeTime(ago(10_000), now)).toBe('just now');
    expect(relativeTime(ago(5 * 60_000), now)).toBe('5m ago');
    expect(relativeTime(ago(59 * 60_000), now)).toBe('59m ago');
    expect(relativeTime(ago(3 * 3600_000), now)).toBe('3h ago');
    expect(relativeTime(ago(30 * 3600_000), now)).toBe('yesterday');
    expect(relativeTime(ago(4 * 86400_000), now)).toBe('4d ago');
  });

  it('shows a date after a week, with the year only when it differs', () => {
    const local = new Date(now - 20 * 86400_000);
    expect(relativeTime(local.toISOString(), now)).toBe(`May ${local.getDate()}`);
    const old = new Date('2024-03-03T12:00:00Z');
    expect(relativeTime(old.toISOString(), now)).toBe(`Mar ${old.getDate()}, 2024`);
  });

  it('treats small clock skew as now and bad input as unknown', () => {
    expect(relativeTime(new Date(now + 60_000).toISOString(), now)).toBe('just now');
    expect(relativeTime(null, now)).toBe('—');
    expect(relativeTime('not a date', now)).toBe('—');
  });
});
