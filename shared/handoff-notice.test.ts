import { describe, expect, it } from 'vitest';
import type { HandoffDeliveryInfo } from './api-types.js';
import { deliverySetUpHint, handoffNotice } from './handoff-notice.js';

describe('deliverySetUpHint', () => {
  it('names where the app installs the delivery, else the CLI command, and the plugin or extension by name', () => {
    const hook: HandoffDeliveryInfo = { via: 'hook', what: "Baton's SessionStart hook", command: 'baton hooks install --agent claude', settings: 'Settings → Hooks' };
    expect(deliverySetUpHint(hook)).toBe('Settings → Hooks installs it');
    expect(deliverySetUpHint({ via: 'plugin', what: "Baton's OpenCode plugin", command: 'baton mcp install --agent opencode --plugin', settings: null })).toBe(
      "`baton mcp install --agent opencode --plugin` installs Baton's OpenCode plugin",
    );
  });
});

describe('handoffNotice for an agent Baton installs nothing into', () => {
  it('says to paste, and why, instead of naming an installer', () => {
    const delivery: HandoffDeliveryInfo = { via: 'paste', what: 'no start-up hook Baton can install', command: '', settings: null };
    expect(deliverySetUpHint(delivery)).toBe('no start-up hook Baton can install');
    const checkpoint = { handoff: { projectDir: '/p' } } as Parameters<typeof handoffNotice>[1]['checkpoint'];
    expect(handoffNotice('Letta Code', { hooksInstalled: false, delivery, checkpoint })).toBe('Handed off to Letta Code. Paste the brief (copied): no start-up hook Baton can install.');
  });
});
