/**
 * Test support: child sessions made of real fixture lines, laid out as the agents write them —
 * a Codex thread spawned by another (a subagent: `session_meta.source.subagent.thread_spawn`) or
 * forked from it (`forked_from_id`), and a Claude session resumed from another (its copied history
 * carries the source's sessionId, then its own new requests follow).
 */
import fs from 'node:fs';
import path from 'node:path';

function findFile(root: string, name: (file: string) => boolean): string {
  for (const entry of fs.readdirSync(root, { withFileTypes: true, recursive: true })) {
    const file = path.join(entry.parentPath, entry.name);
    if (entry.isFile() && name(file)) return file;
  }
  throw new Error(`no file matching under ${root}`);
}

/** A Codex rollout whose session is `childId`, with the lines of `linesFrom` and a link to `parentId`. */
export function addCodexChild(home: string, kind: 'subagent' | 'fork', parentId: string, linesFrom: string, childId: string): string {
  const sessions = path.join(home, '.codex', 'sessions');
  const source = findFile(sessions, (f) => f.endsWith(`${linesFrom}.jsonl`));
  const lines = fs
    .readFileSync(source, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => {
      const r = JSON.parse(l) as { type?: string; payload?: Record<string, unknown> };
      if (r.type !== 'session_meta' || !r.payload) return l;
      const payload: Record<string, unknown> = { ...r.payload, id: childId };
      if (kind === 'fork') payload.forked_from_id = parentId;
      else payload.source = { subagent: { thread_spawn: { parent_thread_id: parentId, depth: 1 } } };
      return JSON.stringify({ ...r, payload });
    });
  const file = path.join(path.dirname(source), `rollout-2026-11-22T04-00-00-${childId}.jsonl`);
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  return `codex:${childId}`;
}

/**
 * A Claude session `childId` resumed from `parentId`: the parent's lines copied first (they keep the
 * parent's sessionId, as Claude Code writes them), then the lines of `ownFrom` as its own requests.
 */
export function addClaudeResume(home: string, parentId: string, ownFrom: string, childId: string): string {
  const projects = path.join(home, '.claude', 'projects');
  const parentFile = findFile(projects, (f) => f.endsWith(`${parentId}.jsonl`));
  const ownFile = findFile(projects, (f) => f.endsWith(`${ownFrom}.jsonl`));
  const retag = (s: unknown) => (typeof s === 'string' ? `${s.slice(0, -4)}f0f0` : s);
  const own = fs
    .readFileSync(ownFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((r) => r.type === 'user' || r.type === 'assistant')
    .map((r) => {
      const message = r.message as Record<string, unknown>;
      return JSON.stringify({
        ...r,
        sessionId: childId,
        uuid: retag(r.uuid),
        parentUuid: retag(r.parentUuid),
        ...(r.requestId ? { requestId: retag(r.requestId) } : {}),
        message: message.id ? { ...message, id: retag(message.id) } : message,
      });
    });
  const copied = fs.readFileSync(parentFile, 'utf8').split('\n').filter(Boolean);
  const file = path.join(path.dirname(parentFile), `${childId}.jsonl`);
  fs.writeFileSync(file, `${[...copied, ...own].join('\n')}\n`);
  return `claude:${childId}`;
}
