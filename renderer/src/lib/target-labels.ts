/**
 * Short names of the brief targets, for the popover's tight places (the target picker, the
 * "Open in" and "Hand off to" buttons): "GitHub Copilot CLI" would wrap them. Full names
 * (AGENT_LABELS) stay in their titles.
 */
import type { BriefTarget } from '../../../shared/settings.js';

export const TARGET_LABELS: Record<BriefTarget, string> = {
  generic: 'Generic',
  claude: 'Claude',
  codex: 'Codex',
  opencode: 'OpenCode',
  hermes: 'Hermes',
  gemini: 'Gemini',
  qwen: 'Qwen',
  pi: 'pi',
  cline: 'Cline',
  kilo: 'Kilo',
  copilot: 'Copilot',
  continue: 'Continue',
  droid: 'Droid',
  letta: 'Letta',
};
