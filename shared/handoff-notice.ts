/**
 * What the app says after a handoff: the target's next session receives the brief by itself, or
 * the brief must be pasted and what installs the target's delivery (a hook, Baton's plugin or
 * extension: the core's per-agent delivery record says which).
 */
import type { HandoffDeliveryInfo, HandoffResult } from './api-types.js';

/** "Settings → Hooks installs it", "`baton mcp install --agent opencode --plugin` installs Baton's OpenCode plugin". */
export function deliverySetUpHint(delivery: HandoffDeliveryInfo): string {
  if (delivery.via === 'paste') return delivery.what;
  const where = delivery.settings ?? `\`${delivery.command}\``;
  return `${where} installs ${delivery.via === 'hook' ? 'it' : delivery.what}`;
}

export function handoffNotice(label: string, result: Pick<HandoffResult, 'hooksInstalled' | 'delivery' | 'checkpoint'>): string {
  return result.hooksInstalled
    ? `Handed off to ${label}: its next session in ${result.checkpoint.handoff?.projectDir ?? 'the folder'} receives the brief (also copied).`
    : `Handed off to ${label}. It has no Baton start-up hook, so paste the brief (copied); ${deliverySetUpHint(result.delivery)}.`;
}
