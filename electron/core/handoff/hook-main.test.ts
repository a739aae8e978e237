import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../../testing/fixture-home.js';
import { writeClaudeTranscript } from '../../../testing/briefs/claude-transcript.js';
import { openUserData } from '../userdata/user-data.js';
import { realDir } from './project-match.js';
import { runHook } from './hook-main.js';

const NOW = new Date('2026-11-25T12:00:00.000Z');

describe('baton hook', () => {
  let tmp: { dir: string; cleanup(): void };
  let batonHome: string;
  let project: string;

  beforeEach(() => {
    tmp = makeTempDir();
    batonHome = path.join(tmp.dir, 'baton');
    project = path.join(tmp.dir, 'project');
    fs.mkdirSync(project, { recursive: true });
  });
  afterEach(() => tmp.cleanup());

  async function hook(argv: string[], stdin: string): Promise<{ code: number; out: string }> {
    let out = '';
    const code = await runHook(argv, { stdin: async () => stdin, stdout: (t) => (out += t), env: { BATON_HOME: batonHome }, cwd: project, now: () => NOW });
    return { code, out };
  }

  function pending(agent: 'claude' | 'codex' | 'hermes' | 'opencode' | 'gemini' | 'qwen' | 'pi' | 'copilot' | 'droid' | 'letta'): string {
    const data = openUserData(batonHome);
    const { checkpoint } = data.saveCheckpoint({
      sessionId: 'codex:src',
      idempotencyToken: null,
      summary: 's',
      decisions: [],
      nextSteps: [],
      blockers: [],
      itemsCompleted: [],
      itemsAdded: [],
      filesChanged: [],
      continuesFrom: null,
      git: null,
      gitFingerprint: {},
      createdAt: '2026-11-25T11:00:00.000Z',
      handoff: { target: { agent, projectDir: realDir(project), worktreeRoot: null, expiresAt: '2026-11-26T00:00:00.000Z' }, brief: 'BRIEF-BODY' },
    });
    data.close();
    return checkpoint.id;
  }

  it('answers Gemini CLI, Qwen Code and Factory Droid with the same JSON (Gemini CLI reads stdout as JSON only), pi with the plain text', async () => {
    for (const agent of ['gemini', 'qwen', 'droid'] as const) {
      pending(agent);
      const { out } = await hook(['session-start', '--agent', agent], JSON.stringify({ session_id: `${agent}-1`, cwd: project, source: 'startup', hook_event_name: 'SessionStart' }));
      expect((JSON.parse(out) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext).toContain('BRIEF-BODY');
    }
    pending('pi');
    // Baton's pi extension passes the session and folder as flags and its own JSON on stdin.
    const { out } = await hook(['session-start', '--agent', 'pi', '--session-id', 'p1', '--cwd', project], JSON.stringify({ session_id: 'p1', cwd: project, source: 'startup' }));
    expect(out.startsWith('# Baton handoff')).toBe(true);
    expect(out).toContain('BRIEF-BODY');
  });

  it("answers Letta Code with the plain text, received by the conversation its input names (it runs in the project, hook cwd elsewhere)", async () => {
    const id = pending('letta');
    let out = '';
    // Letta's SessionStart input (letta.js 0.32.18 runSessionStartHooks): no session_id or cwd, its own names.
    const input = { event_type: 'SessionStart', working_directory: project, is_new_session: false, agent_id: 'agent-local-1', agent_name: 'Letta Code', conversation_id: 'local-conv-2' };
    await runHook(['session-start', '--agent', 'letta'], { stdin: async () => JSON.stringify(input), stdout: (t) => (out += t), env: { BATON_HOME: batonHome }, cwd: tmp.dir, now: () => NOW });
    expect(out.startsWith(`# Baton handoff ${id}`)).toBe(true);
    expect(out).toContain('BRIEF-BODY');
    const data = openUserData(batonHome);
    expect(data.getCheckpoint(id)?.handoff?.receivedBy).toBe('letta:local-conv-2');
    data.close();
  });

  it('answers Claude Code and Codex with hookSpecificOutput.additionalContext', async () => {
    const id = pending('claude');
    const { code, out } = await hook(['session-start', '--agent', 'claude'], JSON.stringify({ session_id: 's1', cwd: project, source: 'startup', hook_event_name: 'SessionStart' }));
    expect(code).toBe(0);
    const parsed = JSON.parse(out) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
    expect(parsed.hookSpecificOutput.hookEventName).toBe('SessionStart');
    expect(parsed.hookSpecificOutput.additionalContext).toContain('BRIEF-BODY');
    expect(parsed.hookSpecificOutput.additionalContext).toContain(id);
  });

  it("answers Copilot CLI's camelCase sessionStart input with a top-level additionalContext", async () => {
    const id = pending('copilot');
    // The input Copilot CLI 1.0.102 sends a camelCase sessionStart hook (recorded from the real CLI).
    const input = { sessionId: 'd5a93352-7dba-442d-9037-f77dbb66e99c', timestamp: 1795763982542, cwd: project, source: 'new', initialPrompt: 'hello' };
    const { out } = await hook(['session-start', '--agent', 'copilot'], JSON.stringify(input));
    const parsed = JSON.parse(out) as { additionalContext: string };
    expect(Object.keys(parsed)).toEqual(['additionalContext']);
    expect(parsed.additionalContext).toContain('BRIEF-BODY');
    expect(parsed.additionalContext).toContain(id);
    const data = openUserData(batonHome);
    expect(data.getCheckpoint(id)?.handoff?.receivedBy).toBe(`copilot:${input.sessionId}`);
    data.close();
  });

  it("answers Hermes' pre_llm_call with {context} on the first turn only", async () => {
    pending('hermes');
    const later = await hook(['session-start', '--agent', 'hermes'], JSON.stringify({ hook_event_name: 'pre_llm_call', session_id: 'h1', cwd: project, extra: { is_first_turn: false } }));
    expect(later.out).toBe('');
    const first = await hook(['session-start', '--agent', 'hermes'], JSON.stringify({ hook_event_name: 'pre_llm_call', session_id: 'h1', cwd: project, extra: { is_first_turn: true } }));
    expect((JSON.parse(first.out) as { context: string }).context).toContain('BRIEF-BODY');
  });

  it('prints plain text for agents without a JSON hook protocol, with the session from flags', async () => {
    pending('opencode');
    const { out } = await hook(['session-start', '--agent', 'opencode', '--session-id', 'ses_1', '--cwd', project], '');
    expect(out).toMatch(/^# Baton handoff /);
    expect(out).toContain('BRIEF-BODY');
  });

  it('finds baton.db through --data-dir when the agent does not pass BATON_HOME', async () => {
    pending('claude');
    let out = '';
    await runHook(['session-start', '--agent', 'claude', '--data-dir', batonHome], {
      stdin: async () => JSON.stringify({ session_id: 's1', cwd: project }),
      stdout: (t) => (out += t),
      env: { HOME: path.join(tmp.dir, 'nowhere') },
      cwd: project,
      now: () => NOW,
    });
    expect(out).toContain('BRIEF-BODY');
  });

  it('prints nothing when nothing is pending or there is no baton.db yet', async () => {
    const none = await hook(['session-start', '--agent', 'claude'], JSON.stringify({ session_id: 's1', cwd: project }));
    expect(none).toEqual({ code: 0, out: '' });
    expect(fs.existsSync(path.join(batonHome, 'baton.db'))).toBe(false);
    pending('codex');
    expect((await hook(['session-start', '--agent', 'claude'], JSON.stringify({ session_id: 's1', cwd: project }))).out).toBe('');
  });

  it('never fails the agent: bad input exits 0, prints nothing, and says why in baton.log', async () => {
    pending('claude');
    const cases: [string[], string][] = [
      [['session-start', '--agent', 'claude'], '{not json'],
      [['session-start', '--agent', 'nobody'], '{}'],
      [['explode', '--agent', 'claude'], '{}'],
      [['session-start', '--agent', 'claude'], JSON.stringify({ cwd: project })],
    ];
    for (const [argv, stdin] of cases) expect(await hook(argv, stdin)).toEqual({ code: 0, out: '' });
    const log = fs.readFileSync(path.join(batonHome, 'baton.log'), 'utf8');
    expect(log).toMatch(/JSON/);
    expect(log).toMatch(/--agent must be one of/);
    expect(log).toMatch(/unknown hook event "explode"/);
    expect(log).toMatch(/no session id/);
  });

  it('does not touch a baton.db of another schema version', async () => {
    const data = openUserData(batonHome);
    data.close();
    const Database = (await import('better-sqlite3')).default;
    const db = new Database(path.join(batonHome, 'baton.db'));
    db.pragma('user_version = 99');
    db.close();
    expect(await hook(['session-start', '--agent', 'claude'], JSON.stringify({ session_id: 's1', cwd: project }))).toEqual({ code: 0, out: '' });
    expect(fs.readFileSync(path.join(batonHome, 'baton.log'), 'utf8')).toMatch(/schema version 99/);
  });

  it('pre-compact saves an automatic checkpoint from the end of the transcript and prints nothing', async () => {
    openUserData(batonHome).close();
    const home = path.join(tmp.dir, 'home');
    const transcript = writeClaudeTranscript({
      home,
      sessionId: '5b1f0c1e-0000-4000-8000-000000000001',
      cwd: project,
      turns: [
        { role: 'user', text: 'Make the parser accept tabs' },
        { role: 'assistant', text: 'Commas work; tabs still fail in the tokenizer.' },
      ],
    });
    const input = { session_id: '5b1f0c1e-0000-4000-8000-000000000001', transcript_path: transcript, cwd: project, hook_event_name: 'PreCompact', trigger: 'auto', custom_instructions: '' };
    expect(await hook(['pre-compact', '--agent', 'claude'], JSON.stringify(input))).toEqual({ code: 0, out: '' });
    // The same compaction reported twice saves one checkpoint.
    await hook(['pre-compact', '--agent', 'claude'], JSON.stringify(input));
    const data = openUserData(batonHome);
    const saved = data.listCheckpoints('claude:5b1f0c1e-0000-4000-8000-000000000001');
    data.close();
    expect(saved).toHaveLength(1);
    expect(saved[0]!.summary).toContain('automatic compaction');
    expect(saved[0]!.summary).toContain('Last request: Make the parser accept tabs');
    expect(saved[0]!.summary).toContain('tabs still fail in the tokenizer');
  });

  it('stop with no Baton running sends nothing and prints nothing', async () => {
    expect(await hook(['stop', '--agent', 'codex'], JSON.stringify({ session_id: 'x', cwd: project, hook_event_name: 'Stop' }))).toEqual({ code: 0, out: '' });
    expect(fs.existsSync(path.join(batonHome, 'baton.log'))).toBe(false);
  });
});
