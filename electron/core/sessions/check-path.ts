/**
 * Live validation of a store path typed in Settings: does it exist, can Baton read it, and how
 * many sessions are there. Sessions already indexed from that root are counted in the index; a
 * path Baton has never read is scanned read-only by the agent's own adapter, within a time budget.
 */
import fs from 'node:fs';
import type { PathCheck } from '../../../shared/api-types.js';
import type { AgentId } from '../../../shared/model.js';
import { createAgentAdapter } from '../sources/local-adapters.js';
import type { SessionIndex } from '../index/session-index.js';

const SCAN_BUDGET_MS = 3000;

export async function checkStorePath(
  agent: AgentId,
  path: string,
  index: SessionIndex | null,
): Promise<PathCheck> {
  if (!fs.existsSync(path)) return { path, exists: false, readable: false, sessions: 0, error: 'Path does not exist.' };
  try {
    fs.accessSync(path, fs.constants.R_OK);
  } catch (err) {
    return { path, exists: true, readable: false, sessions: 0, error: `Not readable: ${(err as Error).message}` };
  }
  const indexed = index?.listSessions({ limit: 1, visibility: { roots: { [agent]: [path] } } }).total ?? 0;
  if (indexed > 0) return { path, exists: true, readable: true, sessions: indexed, error: null };
  return scanWithAdapter(agent, path);
}

async function scanWithAdapter(agent: AgentId, path: string): Promise<PathCheck> {
  const adapter = createAgentAdapter(agent, [path]);
  const sessions = new Set<string>();
  const deadline = Date.now() + SCAN_BUDGET_MS;
  let partial = false;
  let firstError: string | null = null;
  try {
    for (const unit of await adapter.listUnits()) {
      if (Date.now() > deadline) {
        partial = true;
        break;
      }
      for await (const batch of adapter.read(unit, { cursor: null, diagnostic: (d) => (firstError ??= `${d.file}: ${d.message}`) })) {
        for (const s of batch.sessions) sessions.add(s.id);
        if (Date.now() > deadline) {
          partial = true;
          break;
        }
      }
    }
  } catch (err) {
    firstError ??= (err as Error).message;
  }
  const status = adapter.status();
  const error = status.lastError ?? firstError;
  const note = partial ? `Counted ${sessions.size} sessions in ${SCAN_BUDGET_MS / 1000} s; there are more.` : null;
  return { path, exists: true, readable: true, sessions: sessions.size, error: error ?? (sessions.size === 0 ? noSessionsHint(agent) : note) };
}

function noSessionsHint(agent: AgentId): string {
  const where: Record<AgentId, string> = {
    claude: 'projects/<folder>/<session>.jsonl',
    codex: 'sessions/YYYY/MM/DD/rollout-*.jsonl',
    opencode: 'opencode*.db',
    hermes: 'state.db',
    gemini: 'tmp/<project>/chats/session-*.jsonl',
    qwen: 'projects/<project>/chats/*.jsonl',
    pi: '--<cwd>--/*.jsonl',
    cline: 'sessions/<id>/<id>.messages.json',
    kilo: 'kilo.db',
    copilot: 'session-state/<session>/events.jsonl',
    continue: 'sessions/<session>.json',
    droid: 'sessions/<cwd folder>/<session>.jsonl',
    letta: 'lc-local-backend/conversations/<conversation>/messages.jsonl',
  };
  return `No sessions found here (expected ${where[agent]} below this folder).`;
}
