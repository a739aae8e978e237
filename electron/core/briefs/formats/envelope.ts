/**
 * The MCP handoff envelope (session id, handoff id, idempotency token, source/target, next-tool
 * hint, accumulated context, created_at, ttl). Validated with zod on the way out and on the way in;
 * an envelope older than its TTL is refused, never acted on.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { itemLine, type BriefData } from '../brief-data.js';
import type { BriefTarget } from '../../../../shared/settings.js';

export const DEFAULT_ENVELOPE_TTL_SECONDS = 300;

export const HandoffEnvelopeSchema = z.object({
  // Correlation. Baton session ids are `<agent>:<nativeId>`, not UUIDs, so session_id is any id.
  session_id: z.string().min(1),
  handoff_id: z.uuid(),
  idempotency_token: z.string().min(1),
  // Routing
  source_server: z.string().min(1),
  target_server: z.string().min(1),
  next_tool_hint: z.string().optional(),
  // Context payload: distilled state, not a transcript.
  accumulated_context: z.record(z.string(), z.unknown()),
  continuation_token: z.string().optional(),
  // Integrity
  created_at: z.iso.datetime({ offset: true }),
  ttl_seconds: z.number().int().positive().default(DEFAULT_ENVELOPE_TTL_SECONDS),
});
export type HandoffEnvelope = z.infer<typeof HandoffEnvelopeSchema>;

export class EnvelopeExpiredError extends Error {
  readonly code = 'envelope_expired';
  constructor(readonly ageSeconds: number, readonly ttlSeconds: number) {
    super(`Handoff envelope expired: ${Math.floor(ageSeconds)}s old, TTL ${ttlSeconds}s`);
    this.name = 'EnvelopeExpiredError';
  }
}

/** A UUID derived from content (v5-style layout over SHA-256), so the same handoff gets the same id. */
export function stableUuid(...parts: string[]): string {
  const h = createHash('sha256').update(parts.join('\u0000')).digest();
  h[6] = (h[6]! & 0x0f) | 0x50;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

export function toEnvelope(data: BriefData, target: BriefTarget, now: Date, ttlSeconds = DEFAULT_ENVELOPE_TTL_SECONDS): HandoffEnvelope {
  const cp = data.checkpoint;
  const createdAt = now.toISOString();
  const token = cp?.idempotencyToken ?? (cp ? `checkpoint:${cp.id}` : `session:${data.session.id}:${data.session.updatedAt ?? ''}`);
  const envelope: HandoffEnvelope = {
    session_id: data.session.id,
    handoff_id: stableUuid(data.session.id, cp?.id ?? '', target, createdAt),
    idempotency_token: token,
    source_server: `baton:${data.session.agent}`,
    target_server: `baton:${target}`,
    next_tool_hint: 'restore_session',
    accumulated_context: {
      goal: data.goal,
      cwd: data.session.cwd,
      branch: data.git.atCheckpoint?.branch ?? data.session.gitBranch,
      summary: data.state.summary,
      next_steps: data.state.nextSteps.map(itemLine),
      decisions: data.decisions.map(itemLine),
      rejected_alternatives: data.rejected.map(itemLine),
      blockers: data.open.blockers.map(itemLine),
      items_completed: data.state.itemsCompleted.map(itemLine),
      items_added: data.open.itemsAdded.map(itemLine),
      files_changed: data.files.map((f) => ({ path: f.path, action: f.action })),
      verification: data.verification.map((v) => ({ kind: v.kind, command: v.command, outcome: v.outcome, seq: v.seq, failed_before: v.failedBefore })),
      checkpoint_id: cp?.id ?? null,
      checkpoint_at: cp?.createdAt ?? null,
      staleness: data.staleness,
      // Items a token budget left out, by section (empty when everything fitted).
      not_shown: notShown(data),
    },
    created_at: createdAt,
    ttl_seconds: ttlSeconds,
  };
  return HandoffEnvelopeSchema.parse(envelope);
}

function notShown(data: BriefData): Record<string, number> {
  const o = data.omitted;
  const entries: [string, number | undefined][] = [
    ['decisions', o.decisions],
    ['rejected_alternatives', o.rejected],
    ['blockers', o.blockers],
    ['items_added', o.itemsAdded],
    ['next_steps', o.nextSteps],
    ['items_completed', o.itemsCompleted],
    ['files_changed', data.filesTotal - data.files.length + (o.files ?? 0)],
    ['verification', o.verification],
  ];
  return Object.fromEntries(entries.filter((e): e is [string, number] => (e[1] ?? 0) > 0));
}

/** Validates an incoming envelope and refuses it once `created_at + ttl_seconds` has passed. */
export function acceptEnvelope(raw: unknown, now: Date): HandoffEnvelope {
  const envelope = HandoffEnvelopeSchema.parse(raw);
  const age = (now.getTime() - new Date(envelope.created_at).getTime()) / 1000;
  if (age > envelope.ttl_seconds) throw new EnvelopeExpiredError(age, envelope.ttl_seconds);
  return envelope;
}
