/** Test support: session summaries shaped like the index returns them. */
import type { SessionSummary } from '../../shared/api-types.js';
import type { AgentId } from '../../shared/model.js';

export function makeSession(id: string, over: Partial<SessionSummary> = {}): SessionSummary {
  const [agent, nativeId] = id.split(':') as [AgentId, string];
  return {
    id,
    agent,
    nativeId,
    title: null,
    cwd: '/home/ana/projects/demo-app',
    gitBranch: 'main',
    gitCommit: null,
    model: null,
    startedAt: '2026-11-22T03:00:00Z',
    updatedAt: '2026-11-22T03:05:00Z',
    firstPrompt: `Prompt of ${id}`,
    userTurns: 1,
    messageCount: 4,
    toolNames: [],
    usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
    parentId: null,
    sourcePath: `/tmp/${nativeId}.jsonl`,
    bytes: 100,
    latestCheckpointAt: null,
    staleness: null,
    ...over,
  };
}
