/**
 * POST /ingest: sessions pushed by agent plugins. Validated with zod, token-guarded by the HTTP
 * server, and idempotent: a push whose fingerprint (session, updated time, message ids and
 * completion times) matches the last accepted push for that session changes nothing and does no
 * work; a new one makes the index re-read that agent's store.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HttpRoute } from '../server/http-server.js';
import { sendError, sendJson } from '../server/http-io.js';
import type { McpCore } from './mcp-core.js';
import { IngestPayloadSchema, type IngestPayload, type IngestResponse } from './ingest-schema.js';

export const INGEST_PATH = '/ingest';
const REMEMBERED_SESSIONS = 5000;

export function ingestFingerprint(p: IngestPayload): string {
  const parts = [p.agent, p.session_id, String(p.updated_at ?? ''), p.title ?? '', p.directory ?? ''];
  for (const m of p.messages) parts.push(`${m.id}|${m.role}|${m.created_at ?? ''}|${m.completed_at ?? ''}|${m.text?.length ?? ''}`);
  return createHash('sha256').update(parts.join('\n')).digest('hex');
}

export interface IngestHandler {
  handle(req: IncomingMessage, res: ServerResponse, body: Buffer): Promise<void>;
  /** Pushes accepted and synced (for tests and stats). */
  readonly counters: { received: number; synced: number; unchanged: number; rejected: number };
}

export function createIngestHandler(core: McpCore): IngestHandler {
  // Last accepted fingerprint per session; Map keeps insertion order, so the oldest is evicted first.
  const seen = new Map<string, string>();
  const counters = { received: 0, synced: 0, unchanged: 0, rejected: 0 };

  async function handle(req: IncomingMessage, res: ServerResponse, body: Buffer): Promise<void> {
    if (req.method !== 'POST') {
      res.setHeader('allow', 'POST');
      return sendError(res, 405, 'bad_request', 'POST a JSON session update to /ingest.');
    }
    counters.received++;
    let raw: unknown;
    try {
      raw = JSON.parse(body.toString('utf8'));
    } catch {
      counters.rejected++;
      return sendError(res, 400, 'bad_request', 'The body is not valid JSON.');
    }
    const parsed = IngestPayloadSchema.safeParse(raw);
    if (!parsed.success) {
      counters.rejected++;
      const issues = parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`);
      return sendError(res, 400, 'bad_request', `Invalid ingest payload: ${issues.join('; ')}`, issues);
    }
    const payload = parsed.data;
    const key = `${payload.agent}:${payload.session_id}`;
    const fingerprint = ingestFingerprint(payload);
    if (seen.get(key) === fingerprint) {
      counters.unchanged++;
      return sendJson(res, 200, { status: 'unchanged', session: key, indexed: true } satisfies IngestResponse);
    }
    // Claim the fingerprint before the await so a concurrent identical push is a no-op too.
    const previous = seen.get(key);
    seen.delete(key);
    seen.set(key, fingerprint);
    if (seen.size > REMEMBERED_SESSIONS) seen.delete(seen.keys().next().value!);
    try {
      await core.syncNow(payload.agent);
    } catch (err) {
      if (previous === undefined) seen.delete(key);
      else seen.set(key, previous);
      core.log?.(`ingest: re-reading ${payload.agent} failed: ${err instanceof Error ? err.message : String(err)}`);
      return sendError(res, 503, 'internal', `Baton could not re-read the ${payload.agent} store right now; push again later.`);
    }
    counters.synced++;
    const indexed = await core.api.getSession({ session: key }).then(
      () => true,
      () => false,
    );
    return sendJson(res, 200, { status: 'synced', session: key, indexed } satisfies IngestResponse);
  }

  return { handle, counters };
}

export function createIngestRoute(core: McpCore, handler: IngestHandler = createIngestHandler(core)): HttpRoute {
  return { path: INGEST_PATH, methods: ['POST'], auth: true, handle: (req, res, body) => handler.handle(req, res, body) };
}
