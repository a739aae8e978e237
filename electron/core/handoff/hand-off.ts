/**
 * "Hand off to <agent>": the pending handoff saved for the session's folder, whether the target
 * will receive it by itself (its start-up hook is installed), and on request the target started
 * in a terminal there — bare when the hook delivers the brief, with the brief as first prompt
 * when it cannot. Used by `baton handoff` and the popover's action alike.
 */
import fs from 'node:fs';
import type { AgentId } from '../../../shared/model.js';
import type { HandoffResult } from '../../../shared/api-types.js';
import type { BatonCore } from '../baton-core.js';
import { hookRuntimeFor } from '../install/hooks/hook-command.js';
import { HOOK_TARGETS } from '../install/hooks/hook-targets.js';
import { hooksStatus } from '../install/hooks/hooks-installer.js';
import { mcpConfigFile, opencodePluginFile } from '../install/config/config-locations.js';
import { PI_EXTENSION_MARKER } from '../install/plugins/pi-extension.js';
import { briefDir, writeBriefFile } from '../terminal/brief-file.js';
import { hostProbe, launchAgentIn } from '../terminal/open-in-agent.js';
import type { LaunchPlan } from '../terminal/terminal-plan.js';
import type { LaunchOutcome } from '../terminal/launcher.js';

export interface HandOffRequest {
  session: string;
  target: AgentId;
  open?: boolean;
  /** Folder the target works in; default the session's cwd. */
  projectDir?: string;
  summary?: string;
}

/** Whether `agent` picks up a pending handoff at session start without a paste. */
export function receivesHandoffsByItself(core: Pick<BatonCore, 'environment' | 'dataDir'>, agent: AgentId): boolean {
  if (HOOK_TARGETS[agent]) {
    const [status] = hooksStatus({ agent, environment: core.environment, runtime: hookRuntimeFor(core.environment, core.dataDir), dataDir: core.dataDir });
    return status?.events.find((e) => e.event === HOOK_TARGETS[agent]!.specs[0]!.event)?.current ?? false;
  }
  // OpenCode's start-up injection lives in Baton's OpenCode plugin.
  if (agent === 'opencode') return fs.existsSync(opencodePluginFile(core.environment));
  // pi's lives in Baton's pi extension (one that asks `baton hook session-start`).
  if (agent === 'pi') return piExtensionDeliversHandoffs(mcpConfigFile('pi', core.environment));
  return false;
}

function piExtensionDeliversHandoffs(file: string): boolean {
  try {
    const text = fs.readFileSync(file, 'utf8');
    return text.startsWith(PI_EXTENSION_MARKER) && text.includes("'session-start', '--agent', 'pi'");
  } catch {
    return false;
  }
}

export async function handOff(
  core: BatonCore,
  request: HandOffRequest,
  options: { launch?: (plan: LaunchPlan) => Promise<LaunchOutcome> } = {},
): Promise<HandoffResult> {
  const sessionId = core.resolveSession(request.session);
  const { checkpoint, brief } = await core.handoff.createHandoff({
    sessionId,
    target: request.target,
    projectDir: request.projectDir,
    summary: request.summary,
  });
  const hooksInstalled = receivesHandoffsByItself(core, request.target);
  let opened = null;
  if (request.open) {
    const { env, platform, home } = core.environment;
    const briefFile = hooksInstalled ? null : writeBriefFile(brief, request.target, briefDir());
    opened = await launchAgentIn({ probe: hostProbe(platform, env, home), launch: options.launch }, { agent: request.target, cwd: checkpoint.handoff!.projectDir, briefFile });
  }
  core.events.emit({ type: 'sessions-changed', sessionIds: [sessionId] });
  return { checkpoint, brief, hooksInstalled, opened };
}
