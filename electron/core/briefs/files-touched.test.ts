/**
 * Files touched through the shell, in a real Claude Code session (the pinned CLI captured against
 * the mock LLM by bench/planted/capture-shell-edit.ts): the only source file that changed,
 * `src/billing/proration.py`, was edited by `sed -i` and shown by the session's last `git status`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSettings } from '../../../shared/settings.js';
import { openUserData, type UserData } from '../userdata/user-data.js';
import { createHandoffService, type HandoffService } from '../handoff/handoff-service.js';
import { indexedFixtureHome, type IndexedHome } from '../../../testing/briefs/indexed-home.js';
import { briefSection, plantedDir } from '../../../testing/briefs/planted-recall.js';
import { collectFilesTouched } from './files-touched.js';
import type { Message } from '../../../shared/model.js';

const NOW = new Date('2026-11-23T12:00:00.000Z');

describe('Files touched of a real Claude Code session that edits through the shell', () => {
  let ctx: IndexedHome;
  let userData: UserData;
  let service: HandoffService;
  let sessionId: string;

  beforeAll(async () => {
    ctx = await indexedFixtureHome((home) => fs.cpSync(path.join(plantedDir(), 'shell-edit', 'home'), home.home, { recursive: true }));
    userData = openUserData(path.join(ctx.dataDir, 'user'));
    const settings = defaultSettings();
    service = createHandoffService({ reader: ctx.index, userData, settings: () => settings, now: () => NOW });
    const sessions = ctx.index.listSessions({ project: 'baton-shell-edit-', limit: 10 }).sessions;
    expect(sessions).toHaveLength(1);
    sessionId = sessions[0]!.id;
  });
  afterAll(() => {
    userData.close();
    ctx.close();
  });

  it('lists the file `sed -i` edited, citing the Bash call, and not the file the agent only read', async () => {
    const calls = ctx.index.getMessages(sessionId, { kinds: ['tool_call'], order: 'asc' });
    const sed = calls.find((c) => c.text.includes('sed -i'))!;
    for (const budget of [undefined, 2000]) {
      const files = briefSection((await service.generateBrief({ session: sessionId, ...(budget ? { budget } : {}) })).text, 'Files touched');
      expect(files).toContain(`- \`src/billing/proration.py\` — edited (Bash, #${sed.seq})`);
      expect(files).not.toContain('invoice.py');
      expect(files.match(/^- `/gm)).toHaveLength(1);
    }
  });

  it('lists what the last git status shows as modified when no command shows how, citing the listing', () => {
    const calls = ctx.index.getMessages(sessionId, { kinds: ['tool_call'], order: 'asc' });
    const results = ctx.index.getMessages(sessionId, { kinds: ['tool_result'], order: 'desc' });
    const status = calls.find((c) => /"git status"/.test(c.text))!;
    const statusResult = results.find((r) => r.toolCallId === status.toolCallId)!;
    expect(statusResult.text).toContain('modified:   src/billing/proration.py');
    // Without the sed call, the file is still known, from the session's own git status.
    const withoutSed: Message[] = calls.filter((c) => !c.text.includes('sed -i'));
    expect(collectFilesTouched(withoutSed, ctx.index.getSession(sessionId)!.cwd, results)).toEqual([
      { path: 'src/billing/proration.py', action: 'modified', tool: 'git status', seq: statusResult.seq, times: 1 },
    ]);
    // Without its output, nothing is invented.
    expect(collectFilesTouched(withoutSed, ctx.index.getSession(sessionId)!.cwd, [])).toEqual([]);
  });
});
