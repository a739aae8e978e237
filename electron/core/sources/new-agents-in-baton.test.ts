// GitHub Copilot CLI, Continue cn, Factory Droid and Letta Code as first-class agents of Baton,
// end to end over the real fixture stores (testing/agent-in-baton.ts runs the same checks for each).
import { expect, it } from 'vitest';
import { describeAgentInBaton } from '../../../testing/agent-in-baton.js';

describeAgentInBaton({
  agent: 'copilot',
  store: '.copilot',
  branch: true,
  search: { query: '買い物リスト', finds: 'copilot:908d399e-9fea-4d26-b0c9-0d6efd2e37b1' },
  brief: { session: 'copilot:97f2ac22', fileLine: /`NOTES\.md` — created \(create, #\d+\)/, vocabulary: 'use the view tool on the files touched; change them with the edit/create tools', command: 'copilot', secretSession: 'copilot:35af99fe' },
  emptyPathError: 'No sessions found here (expected session-state/<session>/events.jsonl below this folder).',
});

describeAgentInBaton({
  agent: 'continue',
  store: '.continue',
  branch: true,
  search: { query: '買い物リスト', finds: 'continue:374e41c6-2959-47ef-85af-8d963d89e37e' },
  brief: { session: 'continue:9fd09683', fileLine: /`NOTES\.md` — written \(Write, #\d+\)/, vocabulary: 'use the Read tool on the files touched; change them with Edit/Write', command: 'cn', secretSession: 'continue:e93ddacf' },
  emptyPathError: 'No sessions found here (expected sessions/<session>.json below this folder).',
});

describeAgentInBaton({
  agent: 'droid',
  store: '.factory',
  branch: false,
  search: { query: '買い物リスト', finds: 'droid:6dc9bb49-2969-4673-a443-f323183dc77a' },
  // Its Create and Execute calls are understood.
  brief: { session: 'droid:419c8c4a', fileLine: /`NOTES\.md` — created \(Create, #\d+\)/, vocabulary: 'use the Read tool on the files touched; change them with Edit/Create', command: 'droid', secretSession: 'droid:4ce89a0f' },
  emptyPathError: 'No sessions found here (expected sessions/<cwd folder>/<session>.jsonl below this folder).',
});

describeAgentInBaton(
  {
    agent: 'letta',
    store: '.letta',
    branch: true,
    search: { query: '買い物リスト', finds: 'letta:local-conv-8' },
    brief: { session: 'letta:local-conv-2', fileLine: /`NOTES\.md` — written \(Write, #\d+\)/, vocabulary: 'use the Read tool on the files touched; change them with Edit/Write', command: 'letta', secretSession: 'letta:local-conv-7' },
    emptyPathError: 'No sessions found here (expected lc-local-backend/conversations/<conversation>/messages.jsonl below this folder).',
  },
  (ctx) => {
    it('keeps the reminders Letta injects out of search', async () => {
      expect(await ctx().core.api.search({ query: 'agent:letta "Memory directory"', limit: 50 })).toEqual([]);
    });
  },
);
