import { describe, expect, it } from 'vitest';
import type { HandoffDeliveryInfo } from './api-types.js';
import { deliverySetUpHint } from './handoff-notice.js';

describe('deliverySetUpHint', () => {
  it('names where the app installs the delivery, else the CLI command, and the plugin or extension by name', () => {
    const hook: HandoffDeliveryInfo = { via: 'hook', what: "Baton's SessionStart hook", command: 'baton hooks install --agent claude', settings: 'Settings → Hooks' };
    expect(deliverySetUpHint(hook)).toBe('Settings → Hooks installs it');
    expect(deliverySetUpHint({ via: 'plugin', what: "Baton's OpenCode plugin", command: 'baton mcp install --agent opencode --plugin', settings: null })).toBe(
      "`baton mcp install --agent opencode --plugin` installs Baton's OpenCode plugin",
    );
  });
});
