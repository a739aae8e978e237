/**
 * Test support: writes a Claude Code transcript (the JSONL shape the real CLI writes, reduced to
 * the fields it always has) into a fixture home, so tests can index sessions with exact content —
 * secrets, test runs, many turns, a cwd that is a real temp git repo — through the real adapter.
 */
import fs from 'node:fs';
import path from 'node:path';

export type Turn =
  | { role: 'user'; text: string }
  | { role: 'assistant'; text: string }
  | { role: 'tool'; name: string; input: Record<string, unknown>; result: string; isError?: boolean }
  /** `/compact`: the compact_boundary system record, then the summary as a user record flagged isCompactSummary. */
  | { role: 'compact'; summary: string };

export interface TranscriptSpec {
  home: string;
  sessionId: string;
  cwd: string;
  gitBranch?: string;
  model?: string;
  start?: Date;
  turns: Turn[];
}

export function claudeProjectDir(home: string, cwd: string): string {
  return path.join(home, '.claude', 'projects', cwd.replace(/[^A-Za-z0-9]/g, '-'));
}

export function claudeTranscriptLines(spec: TranscriptSpec): string[] {
  const start = spec.start ?? new Date('2026-11-20T09:00:00.000Z');
  const lines: string[] = [];
  let parent: string | null = null;
  let n = 0;
  const base = (type: string) => {
    // Record uuids are globally unique in real transcripts: derive them from the session id.
    const uuid = `${spec.sessionId.slice(0, 8)}-0000-4000-8000-${String(++n).padStart(12, '0')}`;
    const rec = {
      parentUuid: parent,
      isSidechain: false,
      type,
      uuid,
      timestamp: new Date(start.getTime() + n * 1000).toISOString(),
      userType: 'external',
      entrypoint: 'cli',
      cwd: spec.cwd,
      sessionId: spec.sessionId,
      version: '2.1.330',
      gitBranch: spec.gitBranch ?? 'HEAD',
    };
    parent = uuid;
    return rec;
  };
  const assistant = (content: unknown[]) => ({
    ...base('assistant'),
    message: { id: `msg_${n}`, type: 'message', role: 'assistant', model: spec.model ?? 'claude-opus-5-5', content, stop_reason: 'end_turn', usage: { input_tokens: 10, output_tokens: 5 } },
  });
  for (const turn of spec.turns) {
    if (turn.role === 'user') lines.push(JSON.stringify({ ...base('user'), message: { role: 'user', content: turn.text } }));
    else if (turn.role === 'assistant') lines.push(JSON.stringify(assistant([{ type: 'text', text: turn.text }])));
    else if (turn.role === 'compact') {
      lines.push(JSON.stringify({ ...base('system'), subtype: 'compact_boundary', content: 'Conversation compacted', level: 'info', compactMetadata: { trigger: 'manual', preTokens: 48000 } }));
      lines.push(JSON.stringify({ ...base('user'), isCompactSummary: true, isVisibleInTranscriptOnly: true, message: { role: 'user', content: turn.summary } }));
    }
    else {
      const id = `toolu_${String(n + 1).padStart(8, '0')}`;
      lines.push(JSON.stringify(assistant([{ type: 'tool_use', id, name: turn.name, input: turn.input }])));
      lines.push(
        JSON.stringify({
          ...base('user'),
          message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: turn.result, is_error: turn.isError ?? false }] },
        }),
      );
    }
  }
  return lines;
}

/** Writes the transcript where Claude Code keeps it; returns the file path. */
export function writeClaudeTranscript(spec: TranscriptSpec): string {
  const dir = claudeProjectDir(spec.home, spec.cwd);
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${spec.sessionId}.jsonl`);
  fs.writeFileSync(file, claudeTranscriptLines(spec).join('\n') + '\n');
  return file;
}
