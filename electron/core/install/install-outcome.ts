/** What one install or uninstall step reports, whatever it wrote (a config entry, a plugin, an extension). */
import type { McpInstallResult } from '../../../shared/api-types.js';

export interface McpInstallOutcome extends McpInstallResult {
  /** False when the file could not be edited (the message says why and what to do). */
  ok: boolean;
  /** Unified diff of the change (also for dry runs); empty when nothing changes. */
  diff: string;
}
