/**
 * Test support: a Claude Code subagent transcript for a fixture session, laid out as Claude Code
 * 2.1 writes one (`projects/<folder>/<parent id>/subagents/agent-<id>.jsonl`, lines carrying the
 * parent's sessionId, `isSidechain: true` and the `agentId`). Its lines are a real fixture session's
 * user and assistant lines, re-identified (uuids, message and request ids), so the child's requests
 * are its own to every reader, ccusage included.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface ClaudeSubagent {
  /** Baton's id of the child session. */
  id: string;
  file: string;
}

function sessionFile(home: string, nativeId: string): string {
  const projects = path.join(home, '.claude', 'projects');
  for (const folder of fs.readdirSync(projects)) {
    const file = path.join(projects, folder, `${nativeId}.jsonl`);
    if (fs.existsSync(file)) return file;
  }
  throw new Error(`no Claude session ${nativeId} under ${projects}`);
}

/** Writes a subagent of `parentId` whose requests are those of the session `linesFrom`. */
export function addClaudeSubagent(home: string, parentId: string, linesFrom: string, agentId = 'a1b2c3d4e5f60718'): ClaudeSubagent {
  const parentFile = sessionFile(home, parentId);
  const tag = (s: unknown) => (typeof s === 'string' ? `${s.slice(0, -4)}${agentId.slice(0, 4)}` : s);
  const lines = fs
    .readFileSync(sessionFile(home, linesFrom), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((r) => r.type === 'user' || r.type === 'assistant')
    .map((r) => {
      const message = r.message as Record<string, unknown>;
      return {
        ...r,
        uuid: tag(r.uuid),
        parentUuid: tag(r.parentUuid),
        requestRef: tag(r.requestRef),
        ...(r.requestId ? { requestId: tag(r.requestId) } : {}),
        message: message.id ? { ...message, id: tag(message.id) } : message,
        isSidechain: true,
        agentId,
        sessionId: parentId,
      };
    });
  const dir = path.join(path.dirname(parentFile), parentId, 'subagents');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `agent-${agentId}.jsonl`);
  fs.writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return { id: `claude:agent-${agentId}`, file };
}
