/**
 * "Hand off to <agent>": the pending handoff saved for the session's folder, whether the target
 * will receive it by itself (install/agent-delivery.ts: its hook, plugin or extension is installed),
 * and on request the target started in a terminal there — bare when that delivers the brief, with
 * the brief as first prompt when it cannot. Used by `baton handoff` and the popover's action alike.
 */
import type { AgentId } from '../../../shared/model.js';
import type { HandoffResult } from '../../../shared/api-types.js';
import type { CoreEvents } from '../events.js';
import type { Environment } from '../paths.js';
import { boundCheckpoint } from '../briefs/bounded-lists.js';
import { handoffDeliveryInfo, receivesHandoffsByItself } from '../install/agent-delivery.js';
import { briefDir, writeBriefFile } from '../terminal/brief-file.js';
import { hostProbe, launchAgentIn } from '../terminal/open-in-agent.js';
import type { LaunchPlan } from '../terminal/terminal-plan.js';
import type { LaunchOutcome } from '../terminal/launcher.js';
import type { HandoffService } from './handoff-service.js';

export interface HandOffRequest {
  session: string;
  target: AgentId;
  open?: boolean;
  /** Folder the target works in; default the session's cwd. */
  projectDir?: string;
  summary?: string;
}

/** The part of the composed core a handoff uses (declared here so handoff/ depends on no composition root). */
export interface HandOffCore {
  readonly environment: Environment;
  readonly dataDir: string;
  readonly events: Pick<CoreEvents, 'emit'>;
  readonly handoff: Pick<HandoffService, 'createHandoff'>;
  resolveSession(ref: string): string;
}

export async function handOff(
  core: HandOffCore,
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
  return { checkpoint: boundCheckpoint(checkpoint), brief, hooksInstalled, delivery: handoffDeliveryInfo(request.target), opened };
}
