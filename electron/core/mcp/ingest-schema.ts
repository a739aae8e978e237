/**
 * What an agent-side plugin pushes to POST /ingest after each response (the OpenCode plugin in
 * integrations/opencode). Baton reads the agent's own store itself; the push says "this session
 * changed, re-read it now" and carries enough to tell a repeat push from a new one.
 */
import { z } from 'zod';
import { AGENTS } from '../../../shared/model.js';

const time = z.union([z.number().finite().nonnegative(), z.string().trim().max(64)]).nullish();

export const IngestMessageSchema = z.object({
  id: z.string().trim().min(1).max(300),
  role: z.string().trim().min(1).max(32),
  created_at: time,
  completed_at: time,
  /** Optional text; not stored (the store is read directly), only part of the fingerprint. */
  text: z.string().max(200_000).nullish(),
});

export const IngestPayloadSchema = z.object({
  agent: z.enum(AGENTS).default('opencode'),
  /** The agent's native session id (e.g. OpenCode's `ses_…`). */
  session_id: z.string().trim().min(1).max(300),
  title: z.string().max(2000).nullish(),
  directory: z.string().max(4096).nullish(),
  updated_at: time,
  messages: z.array(IngestMessageSchema).max(2000).default([]),
});
export type IngestPayload = z.infer<typeof IngestPayloadSchema>;

export interface IngestResponse {
  status: 'synced' | 'unchanged';
  session: string;
  /** Whether the index knows the session after the sync. */
  indexed: boolean;
}
