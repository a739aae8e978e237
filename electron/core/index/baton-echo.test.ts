import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSettings } from '../../../shared/settings.js';
import { MCP_TOOL_NAMES } from '../mcp/mcp-server.js';
import { openUserData, type UserData } from '../userdata/user-data.js';
import { createHandoffService, type HandoffService } from '../handoff/handoff-service.js';
import { indexedFixtureHome, type IndexedHome } from '../../../testing/briefs/indexed-home.js';
import { writeClaudeTranscript } from '../../../testing/briefs/claude-transcript.js';
import { isBatonTool, NESTED_BRIEF_MARK } from './baton-echo.js';

const SOURCE_ID = 'dddddddd-1111-4222-8333-444444444444';
const ECHO_ID = 'eeeeeeee-1111-4222-8333-444444444444';
const PASTED_ID = 'ffffffff-1111-4222-8333-444444444444';
const CWD = '/home/ana/projects/demo-app';

describe("Baton's own output inside transcripts (self-echo)", () => {
  let ctx: IndexedHome;
  let userData: UserData;
  let service: HandoffService;
  let earlierBrief: string;

  beforeAll(async () => {
    ctx = await indexedFixtureHome((home) => {
      // Where the rare word was really said.
      writeClaudeTranscript({
        home: home.home,
        sessionId: SOURCE_ID,
        cwd: CWD,
        turns: [
          { role: 'user', text: 'Rename the zanzibarite module to ores.' },
          { role: 'assistant', text: 'Renamed zanzibarite to ores.' },
        ],
      });
    });
    userData = openUserData(path.join(ctx.dataDir, 'user'));
    service = createHandoffService({ reader: ctx.index, userData, settings: defaultSettings, now: () => new Date('2026-11-22T12:00:00.000Z') });
    earlierBrief = (await service.generateBrief({ session: `claude:${SOURCE_ID}` })).text;
    // An agent that searched through Baton and fetched that brief, as Claude Code records it.
    writeClaudeTranscript({
      home: ctx.home.home,
      sessionId: ECHO_ID,
      cwd: CWD,
      start: new Date('2026-11-21T09:00:00.000Z'),
      turns: [
        { role: 'user', text: 'Pick up the ore work from the other agent.' },
        { role: 'tool', name: 'mcp__baton__search_all_sessions', input: { query: 'zanzibarite' }, result: JSON.stringify([{ session: `claude:${SOURCE_ID}`, snippet: 'Rename the [[zanzibarite]] module' }]) },
        { role: 'tool', name: 'mcp__baton__generate_brief', input: { session: `claude:${SOURCE_ID}` }, result: earlierBrief },
        { role: 'assistant', text: `Here is what the other agent left:\n\n${earlierBrief}` },
        { role: 'assistant', text: 'I will continue with the ores module.' },
      ],
    });
    // A user who pasted that brief to start the next session.
    writeClaudeTranscript({
      home: ctx.home.home,
      sessionId: PASTED_ID,
      cwd: CWD,
      start: new Date('2026-11-21T10:00:00.000Z'),
      turns: [
        { role: 'user', text: earlierBrief },
        { role: 'assistant', text: 'Picking up the ores rename.' },
      ],
    });
    await ctx.sync();
  });
  afterAll(() => {
    userData?.close();
    ctx?.close();
  });

  it('keeps the calls in the transcript but out of search: the word comes back from where it was said', () => {
    const messages = ctx.index.getMessages(`claude:${ECHO_ID}`);
    expect(messages.filter((m) => m.kind === 'tool_call').map((m) => m.toolName)).toEqual(['mcp__baton__search_all_sessions', 'mcp__baton__generate_brief']);
    expect(messages.some((m) => m.kind === 'tool_result' && m.text.includes('zanzibarite'))).toBe(true);
    expect(new Set(ctx.index.search('zanzibarite').map((h) => h.sessionId))).toEqual(new Set([`claude:${SOURCE_ID}`]));
    // The echo session is still found by what its own conversation says.
    expect(new Set(ctx.index.search('"continue with the ores module"').map((h) => h.sessionId))).toEqual(new Set([`claude:${ECHO_ID}`]));
  });

  it('a brief of the session that fetched a brief names it instead of quoting it again', async () => {
    const { text } = await service.generateBrief({ session: `claude:${ECHO_ID}` });
    expect(text.match(/^# Handoff brief:/gm)).toHaveLength(1);
    expect(text).toContain(NESTED_BRIEF_MARK);
    expect(text).toContain('Here is what the other agent left:');
    expect(text).not.toContain('Renamed zanzibarite to ores.');
  });

  it('a session started from a pasted brief: its goal is the earlier goal, and the brief is not quoted again', async () => {
    const { text } = await service.generateBrief({ session: `claude:${PASTED_ID}` });
    expect(text.match(/Handoff brief:/g)).toHaveLength(1);
    expect(text.match(/^## Conversation excerpt/gm)).toHaveLength(1);
    const goal = text.slice(text.indexOf('## Original goal'), text.indexOf('\n## ', text.indexOf('## Original goal') + 3));
    expect(goal).toContain('Rename the zanzibarite module to ores.');
    expect(text).toContain(NESTED_BRIEF_MARK);
  });

  it('recognises the names each agent gives Baton’s tools, and only those', () => {
    // Every tool the server registers (inspector.test.ts checks the server lists exactly these).
    for (const tool of MCP_TOOL_NAMES) expect(isBatonTool(`mcp__baton__${tool}`), tool).toBe(true);
    for (const name of ['mcp__baton__generate_brief', 'baton_search_all_sessions', 'mcp_baton_list_sessions', 'baton__restore_session', 'baton.checkpoint_session']) {
      expect(isBatonTool(name), name).toBe(true);
    }
    for (const name of ['Bash', 'search_all_sessions', 'mcp__other__search_all_sessions', 'baton_deploy', 'mcp__baton__search_all_sessions_v2', null]) {
      expect(isBatonTool(name), String(name)).toBe(false);
    }
  });
});
