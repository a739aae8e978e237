import { describe, expect, it } from 'vitest';
import { openTarget } from './open-target.js';

describe('openTarget (the preview’s "Open in")', () => {
  it('follows the chosen target', () => {
    expect(openTarget('codex', 'hermes')).toBe('codex');
    expect(openTarget('hermes', 'hermes')).toBe('hermes'); // asked for explicitly
  });

  it('with the Generic target, defaults to an agent other than the session’s own', () => {
    expect(openTarget('generic', 'hermes')).toBe('claude');
    expect(openTarget('generic', 'claude')).toBe('codex');
    expect(openTarget('generic', undefined)).toBe('claude');
  });

  it('takes the agent picked in its menu over both', () => {
    expect(openTarget('codex', 'claude', 'pi')).toBe('pi');
    expect(openTarget('generic', 'claude', 'claude')).toBe('claude');
  });
});
