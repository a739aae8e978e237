import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentId } from '../../../shared/model.js';
import { makeTempDir } from '../../../testing/fixture-home.js';
import { openUserData, type NewCheckpoint, type UserData } from '../userdata/user-data.js';
import { claimPendingHandoff } from './claim-handoff.js';
import { openHandoffStore, type HandoffStore } from './handoff-store.js';
import { realDir, worktreeRoot } from './project-match.js';

const NOW = new Date('2026-11-25T12:00:00.000Z');

function handoff(over: { agent?: AgentId; projectDir: string; expiresAt?: string; createdAt?: string; brief?: string }): NewCheckpoint {
  return {
    sessionId: 'claude:source-1',
    idempotencyToken: null,
    summary: 'half way',
    decisions: [],
    nextSteps: [],
    blockers: [],
    itemsCompleted: [],
    itemsAdded: [],
    filesChanged: [],
    continuesFrom: null,
    git: null,
    gitFingerprint: {},
    createdAt: over.createdAt ?? '2026-11-25T11:00:00.000Z',
    handoff: {
      target: { agent: over.agent ?? 'codex', projectDir: realDir(over.projectDir), worktreeRoot: worktreeRoot(over.projectDir), expiresAt: over.expiresAt ?? '2026-11-26T11:00:00.000Z' },
      brief: over.brief ?? '# Handoff brief: teach the parser tabs\n',
    },
  };
}

describe('claimPendingHandoff', () => {
  let tmp: { dir: string; cleanup(): void };
  let data: UserData;
  let store: HandoffStore;
  let project: string;

  beforeEach(() => {
    tmp = makeTempDir();
    project = path.join(tmp.dir, 'repo', 'packages', 'app');
    fs.mkdirSync(path.join(project, 'src'), { recursive: true });
    fs.mkdirSync(path.join(tmp.dir, 'repo', 'packages', 'lib'), { recursive: true });
    fs.mkdirSync(path.join(tmp.dir, 'elsewhere'), { recursive: true });
    execFileSync('git', ['init', '-q', path.join(tmp.dir, 'repo')]);
    data = openUserData(path.join(tmp.dir, 'baton'));
    store = openHandoffStore(path.join(tmp.dir, 'baton'))!;
  });
  afterEach(() => {
    store.close();
    data.close();
    tmp.cleanup();
  });

  it('gives the brief to the target agent in the folder once, marked received by that session', () => {
    const { checkpoint } = data.saveCheckpoint(handoff({ projectDir: project }));
    const claimed = claimPendingHandoff(store, { agent: 'codex', sessionId: 'thread-9', cwd: project, source: 'startup' }, NOW);
    expect(claimed?.handoffId).toBe(checkpoint.id);
    expect(claimed?.text).toContain('teach the parser tabs');
    expect(claimed?.text).toContain('claude:source-1');
    expect(claimed?.text).toContain(`complete_handoff`);
    expect(claimed?.text).toContain(checkpoint.id);
    const after = data.getCheckpoint(checkpoint.id)!;
    expect(after.status).toBe('received');
    expect(after.receivedAt).toBe(NOW.toISOString());
    expect(after.handoff?.receivedBy).toBe('codex:thread-9');
    // Injected once: the next session in the folder gets nothing.
    expect(claimPendingHandoff(store, { agent: 'codex', sessionId: 'thread-10', cwd: project }, NOW)).toBeNull();
  });

  it('matches a subfolder and another folder of the same git work tree, not an unrelated folder', () => {
    data.saveCheckpoint(handoff({ projectDir: project }));
    expect(claimPendingHandoff(store, { agent: 'codex', sessionId: 'a', cwd: path.join(tmp.dir, 'elsewhere') }, NOW)).toBeNull();
    expect(claimPendingHandoff(store, { agent: 'codex', sessionId: 'b', cwd: path.join(project, 'src') }, NOW)).not.toBeNull();
    data.saveCheckpoint(handoff({ projectDir: project }));
    expect(claimPendingHandoff(store, { agent: 'codex', sessionId: 'c', cwd: path.join(tmp.dir, 'repo', 'packages', 'lib') }, NOW)).not.toBeNull();
  });

  it('resolves symlinked folders before comparing', () => {
    data.saveCheckpoint(handoff({ projectDir: project }));
    const link = path.join(tmp.dir, 'link-to-app');
    fs.symlinkSync(project, link);
    expect(claimPendingHandoff(store, { agent: 'codex', sessionId: 'a', cwd: link }, NOW)).not.toBeNull();
  });

  it('ignores handoffs for another agent and expired ones', () => {
    data.saveCheckpoint(handoff({ projectDir: project, agent: 'claude' }));
    data.saveCheckpoint(handoff({ projectDir: project, expiresAt: '2026-11-25T11:59:59.000Z' }));
    expect(claimPendingHandoff(store, { agent: 'codex', sessionId: 'a', cwd: project }, NOW)).toBeNull();
    expect(claimPendingHandoff(store, { agent: 'claude', sessionId: 'b', cwd: project }, NOW)).not.toBeNull();
  });

  it('takes the newest of several pending handoffs for the folder', () => {
    data.saveCheckpoint(handoff({ projectDir: project, createdAt: '2026-11-25T10:00:00.000Z', brief: 'older' }));
    const { checkpoint: newer } = data.saveCheckpoint(handoff({ projectDir: project, createdAt: '2026-11-25T11:30:00.000Z', brief: 'newer' }));
    expect(claimPendingHandoff(store, { agent: 'codex', sessionId: 'a', cwd: project }, NOW)?.handoffId).toBe(newer.id);
  });

  it('puts the received handoff back into the same session after a compaction, and nowhere else', () => {
    const { checkpoint } = data.saveCheckpoint(handoff({ projectDir: project }));
    claimPendingHandoff(store, { agent: 'codex', sessionId: 'a', cwd: project }, NOW);
    const again = claimPendingHandoff(store, { agent: 'codex', sessionId: 'a', cwd: project, source: 'compact' }, NOW);
    expect(again).toMatchObject({ handoffId: checkpoint.id, reinjected: true });
    expect(claimPendingHandoff(store, { agent: 'codex', sessionId: 'b', cwd: project, source: 'compact' }, NOW)).toBeNull();
    data.markCompleted(checkpoint.id, NOW.toISOString());
    expect(claimPendingHandoff(store, { agent: 'codex', sessionId: 'a', cwd: project, source: 'compact' }, NOW)).toBeNull();
  });

  it('a second store racing for the same handoff loses cleanly', () => {
    data.saveCheckpoint(handoff({ projectDir: project }));
    const other = openHandoffStore(path.join(tmp.dir, 'baton'))!;
    try {
      const first = claimPendingHandoff(store, { agent: 'codex', sessionId: 'a', cwd: project }, NOW);
      const second = claimPendingHandoff(other, { agent: 'codex', sessionId: 'b', cwd: project }, NOW);
      expect(first).not.toBeNull();
      expect(second).toBeNull();
    } finally {
      other.close();
    }
  });

  it("a handoff waiting for its agent is not a stale checkpoint until it expires (health_check)", () => {
    data.saveCheckpoint(handoff({ projectDir: project, createdAt: '2026-11-25T08:00:00.000Z', expiresAt: '2026-11-26T08:00:00.000Z' }));
    expect(data.handoffStats('2026-11-25T11:55:00.000Z', NOW.toISOString())).toMatchObject({ pending: 1, stalePending: 0 });
    expect(data.handoffStats('2026-11-26T08:55:00.000Z', '2026-11-26T09:00:00.000Z')).toMatchObject({ pending: 1, stalePending: 1 });
  });
});
