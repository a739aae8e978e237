import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSettings, type Settings } from '../../../shared/settings.js';
import { expectedSessions } from '../../../testing/fixture-home.js';
import { fixtureAdapters } from '../../../testing/index-support.js';
import { openUserData, type UserData } from '../userdata/user-data.js';
import { DelimitRecordSchema } from '../briefs/formats/delimit.js';
import { validateHandoffDocument } from '../briefs/formats/govzero.js';
import { acceptEnvelope } from '../briefs/formats/envelope.js';
import { createHandoffService, type HandoffService } from './handoff-service.js';
import { indexedFixtureHome, type IndexedHome } from '../../../testing/briefs/indexed-home.js';
import { writeClaudeTranscript, type Turn } from '../../../testing/briefs/claude-transcript.js';
import { countTokens } from '../briefs/tokens.js';
import { handoffInjectionText } from './handoff-text.js';

const NOW = new Date('2026-11-22T12:00:00.000Z');
const SECRET_ID = 'aaaaaaaa-1111-4222-8333-444444444444';
const REPO_ID = 'bbbbbbbb-1111-4222-8333-444444444444';
const LONG_ID = 'cccccccc-1111-4222-8333-444444444444';

/** One secret per kind, as they would show up in a transcript. */
const SECRETS: Record<string, string> = {
  aws_access_key_id: 'AKIAZ7QW3RT5YU8IO2PL',
  github_token: 'ghp_Zx8Qw3Rt5Yu8Io2PlKj7Hg6Fd4Sa1ZxCvBn01',
  anthropic_api_key: 'sk-ant-api03-Zx8Qw3Rt5Yu8Io2PlKj7Hg6Fd4Sa1ZxCvBnM0987Qw3Rt5Yu8Io2PlKj7Hg6Fd4Sa1ZxCvBnM0987abAA',
  openai_api_key: 'sk-proj-Ab3Cd5Ef7Gh9Ij1Kl3Mn5Op7Qr9St1Uv3Wx5Yz7Ab9',
  slack_token: 'xoxb-123456789012-1234567890123-Zx8Qw3Rt5Yu8Io2PlKj7Hg6F',
  google_api_key: 'AIzaSyDq3Lk9Zx8Qw3Rt5Yu8Io2PlKj7Hg6Fd4S',
  private_key: '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\nQyNTUxOQAAACDh5Kk3f9hB2qL0zX8cV1bN4mQ7wR2tY6uI9oP3aS5dFgAAAJgn8pYtJ/KW\n-----END OPENSSH PRIVATE KEY-----',
  password_in_url: 'hunter2pass',
  env_secret: 'correct-horse-battery-staple',
  bearer_token: 'Zx8Qw3Rt5Yu8Io2PlKj7Hg6Fd4Sa1',
  jwt: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
};

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@e', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@e', GIT_CONFIG_NOSYSTEM: '1' },
  });
}

function section(text: string, heading: string): string {
  const start = text.indexOf(`## ${heading}`);
  if (start < 0) return '';
  const rest = text.slice(start + heading.length + 3);
  const end = rest.search(/^## /m);
  return end >= 0 ? rest.slice(0, end) : rest;
}

describe('handoff service over the real index of the fixture stores', () => {
  let ctx: IndexedHome;
  let userData: UserData;
  let service: HandoffService;
  let repo: string;
  let settings: Settings;

  beforeAll(async () => {
    ctx = await indexedFixtureHome((home) => {
      repo = path.join(path.dirname(home.home), 'work', 'web app');
      fs.mkdirSync(path.join(repo, 'src'), { recursive: true });
      git(repo, 'init', '-q', '-b', 'main');
      fs.writeFileSync(path.join(repo, 'src', 'app.ts'), 'export const a = 1;\n');
      fs.writeFileSync(path.join(repo, 'README.md'), '# app\n');
      git(repo, 'add', '.');
      git(repo, 'commit', '-q', '-m', 'Initial');
      git(repo, 'checkout', '-q', '-b', 'feature/login');

      writeClaudeTranscript({
        home: home.home,
        sessionId: SECRET_ID,
        cwd: '/home/ana/projects/demo-app',
        gitBranch: 'feature/greeting-punctuation',
        turns: [
          { role: 'user', text: `Deploy with AWS key ${SECRETS.aws_access_key_id} and token ${SECRETS.github_token}` },
          { role: 'assistant', text: `Using ${SECRETS.anthropic_api_key} and ${SECRETS.openai_api_key}.` },
          { role: 'tool', name: 'Bash', input: { command: `curl -H "Authorization: Bearer ${SECRETS.bearer_token}" https://api.example.com` }, result: `slack ${SECRETS.slack_token}` },
          { role: 'assistant', text: `I ran curl -H "Authorization: Bearer ${SECRETS.bearer_token}" and got the Slack token ${SECRETS.slack_token}.` },
          { role: 'user', text: `Google key ${SECRETS.google_api_key}; the deploy key is\n${SECRETS.private_key}` },
          { role: 'assistant', text: `Connecting to postgres://admin:${SECRETS.password_in_url}@db.example.com:5432/app with\nDB_PASSWORD=${SECRETS.env_secret}\nand session ${SECRETS.jwt}` },
          { role: 'user', text: `We decided to deploy with the token ${SECRETS.github_token} because staging needs it. We will not use the key ${SECRETS.openai_api_key} again.` },
          { role: 'user', text: `We are blocked until ops rotates ${SECRETS.aws_access_key_id}. Next steps: 1. rotate ${SECRETS.slack_token} 2. redeploy` },
        ],
      });

      const repoTurns: Turn[] = [
        { role: 'user', text: 'Add a login form to the web app.\nKeep it small.' },
        { role: 'assistant', text: 'I will start with the form component.' },
        { role: 'tool', name: 'Read', input: { file_path: path.join(repo, 'README.md') }, result: '# app' },
        { role: 'tool', name: 'Write', input: { file_path: path.join(repo, 'src', 'login.ts'), content: 'export {}' }, result: 'File created successfully' },
        { role: 'tool', name: 'Edit', input: { file_path: path.join(repo, 'src', 'app.ts'), old_string: 'a', new_string: 'b' }, result: 'ok' },
        { role: 'tool', name: 'MultiEdit', input: { file_path: path.join(repo, 'src', 'login.ts'), edits: [] }, result: 'ok' },
        { role: 'tool', name: 'NotebookEdit', input: { notebook_path: path.join(repo, 'notes.ipynb'), new_source: 'x' }, result: 'ok' },
        { role: 'tool', name: 'Bash', input: { command: 'npm test' }, result: 'FAIL src/login.test.ts', isError: true },
        { role: 'assistant', text: 'The test fails; fixing the import.' },
        { role: 'tool', name: 'Bash', input: { command: 'npx eslint src' }, result: 'Process exited with code 1' },
        { role: 'tool', name: 'Bash', input: { command: 'npm test' }, result: 'All 3 tests passed' },
        { role: 'tool', name: 'Bash', input: { command: 'npx tsc --noEmit' }, result: '' },
        { role: 'assistant', text: 'Login form added; tests pass. Lint still reports one issue.' },
      ];
      writeClaudeTranscript({ home: home.home, sessionId: REPO_ID, cwd: repo, gitBranch: 'feature/login', turns: repoTurns });

      const long: Turn[] = [{ role: 'user', text: 'Port the parser to Rust. ' + 'Context. '.repeat(20) }];
      for (let i = 1; i < 420; i++) {
        long.push(i % 2 ? { role: 'assistant', text: `Step ${i}: ${'progress note '.repeat(40)}` } : { role: 'user', text: `Continue with step ${i}.` });
        if (i % 10 === 0) long.push({ role: 'tool', name: 'Bash', input: { command: `cargo build --step ${i}` }, result: 'ok' });
      }
      long.push({ role: 'assistant', text: 'The lexer is ported; the parser is next.' });
      writeClaudeTranscript({ home: home.home, sessionId: LONG_ID, cwd: repo, gitBranch: 'feature/login', turns: long });
    });
    userData = openUserData(path.join(ctx.dataDir, 'user'));
    settings = defaultSettings();
    service = createHandoffService({ reader: ctx.index, userData, settings: () => settings, now: () => NOW });
  });
  afterAll(() => {
    userData.close();
    ctx.close();
  });

  it('briefs every fixture session: goal = first prompt, branch, tool traffic and files', async () => {
    const readable = new Set(fixtureAdapters(ctx.home.env).map((a) => a.agent));
    for (const e of expectedSessions().filter((x) => readable.has(x.agent))) {
      const id = `${e.agent}:${e.id}`;
      const brief = await service.generateBrief({ session: id, target: 'generic' });
      const text = brief.text;
      const goal = section(text, 'Original goal');
      // A prompt holding a (fake) secret is briefed with the secret redacted.
      const prompt = e.hasSecrets ? e.firstPrompt!.replace(/ghp_[A-Za-z0-9]{36}/g, '[REDACTED:github_token]') : e.firstPrompt!;
      expect(goal, id).toContain(prompt.split('\n')[0]);
      expect(goal.trim(), id).toBe(prompt.split('\n').map((l) => (l ? `> ${l}` : '>')).join('\n'));
      expect(text, id).toContain(e.gitBranch ? `- Branch: \`${e.gitBranch}\`` : '- Branch: none recorded');
      expect(text).toContain(`- Project: \`${e.cwd}\``);
      const excerpt = section(text, 'Conversation excerpt');
      for (const tool of e.toolNames) expect(excerpt, `${id} ${tool}`).toMatch(new RegExp(`\\[\\d+ tool calls?: [^\\]]*\\b${tool}\\b`));
      // pi's `!cmd` shell runs show as the bash calls they were, though the agent itself ran no tool.
      if (e.toolNames.length === 0 && e.agent !== 'pi') expect(excerpt, id).not.toContain('tool call');
      const files = section(text, 'Files touched');
      // The agents' file-writing tools (Copilot CLI's and Droid's create, Cline's editor among them).
      const fileTools = ['Write', 'write', 'write_file', 'apply_patch', 'create', 'Create', 'editor', 'Edit', 'edit'];
      const writes = e.toolNames.some((t) => fileTools.includes(t));
      if (writes) expect(files, id).toMatch(new RegExp(`\`NOTES\\.md\` — (written|created|edited) \\((${fileTools.join('|')}), #\\d+\\)`));
      // Without file tools, only what the session's own `git status` listed (e.g. a modified `src/app.js`).
      else if (files.trim() !== 'No file changes recorded in tool calls.') for (const line of files.trim().split('\n')) expect(line, id).toMatch(/^- `[^`]+` — \w+ \(git status, #\d+\)$/);
      expect(section(text, 'Current state and next steps')).toContain('No checkpoint: where the work stands, from the transcript.');
      expect(section(text, 'Current state and next steps')).toMatch(/Last assistant conclusion \(#\d+\):/);
      expect(brief.tokens).toBe(countTokens(text));
      expect(brief.tokens).toBeLessThanOrEqual(brief.budget);
      if (e.hasSecrets) expect(Object.keys(brief.redactions), id).not.toHaveLength(0);
      else expect(brief.redactions).toEqual({});
    }
  });

  it('is deterministic: same inputs, same bytes (in every format)', async () => {
    const other = createHandoffService({ reader: ctx.index, userData, settings: () => settings, now: () => NOW });
    for (const format of ['md', 'delimit', 'govzero', 'envelope'] as const) {
      const a = await service.generateBrief({ session: `claude:${REPO_ID}`, format, target: 'codex' });
      const b = await other.generateBrief({ session: `claude:${REPO_ID}`, format, target: 'codex' });
      expect(a.text).toBe(b.text);
    }
  });

  it('lists files with the last action on each and the verification runs with their outcome', async () => {
    const { text } = await service.generateBrief({ session: `claude:${REPO_ID}` });
    const files = section(text, 'Files touched').trim().split('\n');
    expect(files).toEqual([
      expect.stringMatching(/^- `notes\.ipynb` — edited \(NotebookEdit, #\d+\)$/),
      expect.stringMatching(/^- `src\/login\.ts` — edited \(MultiEdit, 2×, #\d+\)$/),
      expect.stringMatching(/^- `src\/app\.ts` — edited \(Edit, #\d+\)$/),
    ]);
    const checks = section(text, 'Verification').trim().split('\n');
    expect(checks).toEqual([
      '- lint: `npx eslint src` — failed (exit 1) _(#15)_',
      '- test: `npm test` — passed _(#17; an earlier run failed at #12, now history)_',
      '- typecheck: `npx tsc --noEmit` — passed _(#19)_',
    ]);
    const state = section(text, 'Current state and next steps');
    expect(state).toContain('- Latest verification: `npx tsc --noEmit` passed (#19)');
    expect(state).toContain('- No file changed since the last passing check.');
    expect(state).toContain('Last assistant conclusion (#21):\n\n> Login form added; tests pass. Lint still reports one issue.');
    const excerpt = section(text, 'Conversation excerpt');
    expect(excerpt).toContain('[6 tool calls: Read, Write, Edit, MultiEdit, NotebookEdit, Bash]');
    // The failure it talked about is history: the same check passed afterwards.
    expect(excerpt).toContain('**Assistant** (#14) _[history: `npm test` passed later (#17)]_: The test fails; fixing the import.');
    expect(excerpt).toContain('**User** (#0): Add a login form to the web app.\nKeep it small.');
  });

  it('words each target and gives the command that opens it in the cwd, shell-quoted', async () => {
    const expected = {
      claude: 'claude',
      codex: 'codex',
      opencode: 'opencode',
      hermes: 'hermes',
    } as const;
    for (const [target, cmd] of Object.entries(expected) as [keyof typeof expected, string][]) {
      const brief = await service.generateBrief({ session: `claude:${REPO_ID}`, target });
      expect(brief.openCommand).toBe(`cd '${repo}' && ${cmd}`);
    }
    const codex = await service.generateBrief({ session: `claude:${REPO_ID}`, target: 'codex' });
    expect(codex.text).toContain('## Instructions for Codex CLI');
    expect(codex.text).toContain('change them with apply_patch');
    const claude = await service.generateBrief({ session: `claude:${REPO_ID}`, target: 'claude' });
    expect(claude.text).toContain('use the Read tool on the files touched');
    const generic = await service.generateBrief({ session: `claude:${REPO_ID}` });
    expect(generic.target).toBe('generic');
    expect(generic.openCommand).toBeNull();
    expect(generic.text).toContain('Treat the settled decisions as final');
  });

  it('offers the first and the latest 40 user messages of a long session (over 200 messages) plus the first and last exchanges, and trims by value under a budget', async () => {
    const full = await service.generateBrief({ session: `claude:${LONG_ID}`, budget: 200_000 });
    const excerpt = section(full.text, 'Conversation excerpt');
    const users = ctx.index.getMessages(`claude:${LONG_ID}`, { kinds: ['text'], roles: ['user'] });
    expect(users).toHaveLength(210);
    for (const u of [users[0]!, ...users.slice(-40)]) expect(excerpt).toContain(`**User** (#${u.seq}): ${u.text.trim()}`);
    for (const u of users.slice(6, 160)) expect(excerpt).not.toContain(`**User** (#${u.seq})`);
    const assistants = excerpt.match(/^\*\*Assistant\*\*/gm) ?? [];
    expect(assistants.length).toBeGreaterThanOrEqual(14);
    expect(assistants.length).toBeLessThan(30);
    const shownLines = excerpt.match(/^\*\*(User|Assistant)\*\*/gm) ?? [];
    expect(shownLines.length).toBe(45 + assistants.length);
    expect(excerpt).toContain(`_${shownLines.length} of 421 substantive messages shown`);
    // Omitted user messages are counted exactly; the assistant's replies there were not read.
    expect(excerpt).toMatch(/\[… 165 user messages, assistant replies and 33 tool calls omitted …\]/);
    expect(excerpt).toMatch(/\[… assistant replies and 1 tool call omitted …\]/);
    expect(excerpt).toContain('[1 tool call: Bash]');

    const tight = await service.generateBrief({ session: `claude:${LONG_ID}`, budget: 1500 });
    expect(tight.tokens).toBeLessThanOrEqual(1500);
    expect(tight.text).toContain('Port the parser to Rust.');
    expect(section(tight.text, 'Current state and next steps')).toContain('The lexer is ported; the parser is next.');
    const kept = section(tight.text, 'Conversation excerpt');
    const shown = [...kept.matchAll(/^\*\*(User|Assistant)\*\* \(#(\d+)\)/gm)].map((m) => ({ role: m[1], seq: Number(m[2]) }));
    expect(shown.length).toBeLessThan(users.length);
    expect(kept).toContain('**User** (#0)');
    // The user's words outlast the assistant's: no reply is shown without the message it answers.
    const userSeqs = users.map((u) => u.seq);
    for (const m of shown.filter((x) => x.role === 'Assistant')) {
      const owner = Math.max(...userSeqs.filter((s) => s < m.seq));
      expect(shown.some((x) => x.role === 'User' && x.seq === owner), `reply #${m.seq} without #${owner}`).toBe(true);
    }
    expect(shown.filter((x) => x.role === 'User').length).toBeGreaterThan(shown.filter((x) => x.role === 'Assistant').length);
  });

  it('redacts each secret kind from a transcript that contains it, and can be turned off per brief', async () => {
    const brief = await service.generateBrief({ session: `claude:${SECRET_ID}` });
    for (const [kind, secret] of Object.entries(SECRETS)) {
      const probe = secret.includes('\n') ? secret.split('\n')[1]! : secret;
      expect(brief.text, kind).not.toContain(probe);
      expect(brief.text, kind).toContain(`[REDACTED:${kind}]`);
      expect(brief.redactions[kind], kind).toBeGreaterThanOrEqual(1);
    }
    expect(brief.redacted).toBe(true);
    expect(brief.text).toContain('postgres://admin:[REDACTED:password_in_url]@db.example.com');

    for (const format of ['delimit', 'govzero', 'envelope'] as const) {
      const other = await service.generateBrief({ session: `claude:${SECRET_ID}`, format });
      for (const secret of Object.values(SECRETS)) expect(other.text, format).not.toContain(secret.split('\n')[1] ?? secret);
      expect(Object.keys(other.redactions).length, format).toBeGreaterThan(0);
      for (const [kind, n] of Object.entries(other.redactions)) expect(other.text.split(`[REDACTED:${kind}]`).length - 1).toBe(n);
    }

    const raw = await service.generateBrief({ session: `claude:${SECRET_ID}`, redact: false });
    expect(raw.redacted).toBe(false);
    expect(raw.redactions).toEqual({});
    expect(raw.text).toContain(SECRETS.github_token);
  });

  it('keeps secrets out of the sections built from the conversation, in every fixture session too', async () => {
    const { text } = await service.generateBrief({ session: `claude:${SECRET_ID}` });
    const sections = ['Current state and next steps', 'Settled decisions', 'Rejected alternatives', 'Open items and blockers'].map((h) => section(text, h));
    expect(sections[1]).toContain('We decided to deploy with the token [REDACTED:github_token] because staging needs it.');
    expect(sections[2]).toContain('We will not use the key [REDACTED:openai_api_key] again.');
    expect(sections[3]).toContain('We are blocked until ops rotates [REDACTED:aws_access_key_id].');
    expect(sections[0]).toContain('rotate [REDACTED:slack_token]');
    for (const secret of Object.values(SECRETS)) for (const body of sections) expect(body).not.toContain(secret.split('\n')[1] ?? secret);

    // The fixture stores plant fake GitHub tokens (MANIFEST.md); none may reach a structured section.
    const readable = new Set(fixtureAdapters(ctx.home.env).map((a) => a.agent));
    for (const e of expectedSessions().filter((x) => readable.has(x.agent))) {
      const brief = await service.generateBrief({ session: `${e.agent}:${e.id}` });
      for (const h of ['Current state and next steps', 'Settled decisions', 'Rejected alternatives', 'Open items and blockers']) {
        expect(section(brief.text, h), `${e.id} ${h}`).not.toMatch(/ghp_[A-Za-z0-9]{20,}/);
      }
    }
  });

  it('checkpoints idempotently with a git snapshot, then restores with drift first and marks the handoff', async () => {
    const id = `claude:${REPO_ID}`;
    const req = {
      summary: 'Login form in place; lint issue open.',
      decisions: ['Use JWT over sessions'],
      nextSteps: ['Fix the lint error in src/login.ts', 'Add the logout button'],
      blockers: ['Design for the error state is missing'],
      itemsCompleted: ['Login form'],
      itemsAdded: ['Logout button'],
      idempotencyToken: 'retry-me',
    };
    const cp = await service.createCheckpoint(req, id);
    const again = await service.createCheckpoint({ ...req, summary: 'different text on retry' }, id);
    expect(again).toEqual(cp);
    expect(service.listCheckpoints(id)).toHaveLength(1);
    expect(cp.git).toMatchObject({ isRepo: true, branch: 'feature/login', headSubject: 'Initial', untracked: [] });
    expect(cp.status).toBe('pending');

    const brief = await service.generateBrief({ session: id });
    expect(section(brief.text, 'Current state and next steps')).toContain('Login form in place; lint issue open.');
    expect(section(brief.text, 'Current state and next steps')).toContain('1. Fix the lint error in src/login.ts');
    expect(section(brief.text, 'Settled decisions')).toContain('- Use JWT over sessions');
    expect(section(brief.text, 'Open items and blockers')).toContain('- Blocker: Design for the error state is missing');
    expect(brief.text).toContain(`- Latest checkpoint: ${NOW.toISOString()}, fresh (< 24 h)`);

    // The repository moves on after the checkpoint.
    fs.writeFileSync(path.join(repo, 'src', 'login.ts'), 'export const login = 1;\n');
    git(repo, 'add', 'src/login.ts');
    git(repo, 'commit', '-q', '-m', 'Add login');
    fs.writeFileSync(path.join(repo, 'README.md'), '# app\nchanged\n');

    const preview = await service.restore({ sessionId: id });
    expect(preview.brief).toBeNull();
    expect(preview.checkpoint!.status).toBe('pending');
    expect(preview.drift!.commitsSince.map((c) => c.subject)).toEqual(['Add login']);
    expect(preview.drift!.filesChangedSince).toEqual(['README.md', 'src/login.ts']);
    expect(preview.summary).toContain('Git drift: 1 commit since the checkpoint; 2 files changed since.');

    const restored = await service.restore({ sessionId: id, confirmed: true, target: 'opencode' });
    expect(restored.checkpoint!.status).toBe('received');
    expect(restored.brief!.target).toBe('opencode');
    expect(section(restored.brief!.text, 'Git')).toContain('Commits since the checkpoint (1):');
    expect(restored.brief!.text).toContain('The repository changed since the checkpoint');

    const done = service.completeHandoff({ sessionId: id });
    expect(done.status).toBe('completed');
    expect(service.handoffStatus()).toMatchObject({ storeOk: true, pending: 0, lastCompletedSessionId: id });

    // Seed formats from the same checkpoint.
    const delimit = DelimitRecordSchema.parse(JSON.parse((await service.generateBrief({ session: id, format: 'delimit' })).text));
    expect(delimit).toMatchObject({
      id: 'session_20261122_120000',
      venture: 'web app',
      key_decisions: ['Use JWT over sessions'],
      blockers: ['Design for the error state is missing'],
      items_completed: ['Login form'],
    });
    const gov = await service.generateBrief({ session: id, format: 'govzero' });
    expect(validateHandoffDocument(gov.text, repo)).toEqual([]);
    const envelope = acceptEnvelope(JSON.parse((await service.generateBrief({ session: id, format: 'envelope' })).text), NOW);
    expect(envelope.idempotency_token).toBe('retry-me');
    expect(envelope.accumulated_context.decisions).toEqual(['Use JWT over sessions']);
  });

  it('shows pinned turns as settled decisions and unpins them', async () => {
    const id = `claude:${LONG_ID}`;
    expect(service.pinDecision({ sessionId: id, seq: 3, pinned: true })).toEqual({ pinned: true });
    const pinnedText = ctx.index.getMessages(id, { offset: 3, limit: 1 })[0]!.text.trim();
    const brief = await service.generateBrief({ session: id });
    expect(section(brief.text, 'Settled decisions')).toContain(`${pinnedText} _(pinned turn #3)_`);
    service.pinDecision({ sessionId: id, seq: 3, pinned: false });
    expect(section((await service.generateBrief({ session: id })).text, 'Settled decisions').trim()).toBe('None recorded.');
    expect(() => service.pinDecision({ sessionId: id, seq: 99_999, pinned: true })).toThrow(/no message #99999/);
  });

  it('reports a session cwd that does not exist plainly in restore', async () => {
    const id = `claude:${SECRET_ID}`;
    await service.createCheckpoint({ summary: 'secrets session' }, id);
    const r = await service.restore({ sessionId: id });
    expect(r.drift!.error).toMatch(/no longer exists/);
    expect(r.summary).toMatch(/Git: working directory no longer exists/);
    await expect(service.generateBrief({ session: 'claude:nope' })).rejects.toThrow(/No session/);
  });
  it("a handoff to Letta Code fits its hook's 10,000 characters whole; other targets keep the full budget", async () => {
    const into = async (target: 'letta' | 'codex') => {
      const { checkpoint } = await service.createHandoff({ sessionId: `claude:${LONG_ID}`, target, projectDir: repo });
      const stored = userData.handoffBrief(checkpoint.id)!;
      return handoffInjectionText({ handoffId: checkpoint.id, sourceSessionId: `claude:${LONG_ID}`, target, createdAt: checkpoint.createdAt, brief: stored });
    };
    const codex = await into('codex');
    const letta = await into('letta');
    expect(codex.length).toBeGreaterThan(10_000); // the long session fills the default budget
    expect(letta.length).toBeLessThanOrEqual(10_000);
    expect(letta).toContain('complete_handoff');
    expect(letta).toContain('## Instructions for Letta Code');
  });
});
