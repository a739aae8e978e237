/**
 * The agents' structured records as their stores keep them (inputs as the adapters store tool
 * calls; summary texts in each CLI's own format, as the mock LLM of ../shared/mock-llm answers the
 * CLIs' summary prompts and the CLIs store verbatim), and the user-statement classifier.
 */
import { describe, expect, it } from 'vitest';
import { isCompactionSummary, isTodoTool, planText, sectionItems, todoItems } from './agent-records.js';
import { classifySentence, keyTerms, sameSubject, unwrapPrompt, userStatements } from './statements.js';
import { failureInOutput } from './verification.js';

const kinds = (items: { kind: string; text: string }[]) => items.map((i) => `${i.kind}: ${i.text}`);

describe('todo lists and plans', () => {
  it('reads Claude TodoWrite, Codex update_plan, OpenCode todowrite, Gemini write_todos and Qwen todo_write', () => {
    const claude = JSON.stringify({ todos: [{ content: 'Add tests', status: 'completed', activeForm: 'Adding tests' }, { content: 'Wire uploader', status: 'in_progress', activeForm: 'Wiring' }] });
    const codex = JSON.stringify({ explanation: 'x', plan: [{ step: 'Write runbook', status: 'pending' }, { step: 'Ship', status: 'completed' }] });
    const opencode = JSON.stringify({ todos: [{ content: 'Fix lint', status: 'pending', priority: 'high', id: '1' }, { content: 'Old idea', status: 'cancelled', priority: 'low', id: '2' }] });
    const gemini = JSON.stringify({ todos: [{ description: 'Read config', status: 'completed' }, { description: 'Patch parser', status: 'pending' }] });
    for (const name of ['TodoWrite', 'update_plan', 'todowrite', 'write_todos', 'todo_write', 'mcp__x__todowrite']) expect(isTodoTool(name), name).toBe(true);
    expect(isTodoTool('Write')).toBe(false);
    expect(kinds(todoItems(claude)!)).toEqual(['done: Add tests', 'next: Wire uploader']);
    expect(todoItems(claude)![1]!.status).toBe('in_progress');
    expect(kinds(todoItems(codex)!)).toEqual(['next: Write runbook', 'done: Ship']);
    expect(kinds(todoItems(opencode)!)).toEqual(['next: Fix lint']);
    expect(kinds(todoItems(gemini)!)).toEqual(['done: Read config', 'next: Patch parser']);
    expect(todoItems('not json')).toBeNull();
  });

  it('finds plans in plan files (Write, write_file, apply_patch) and plan mode', () => {
    const plan = '# Plan\n\n## Decisions\n- Use SQLite\n\n## Next steps\n1. Port the lexer\n2. Port the parser\n';
    expect(planText('Write', JSON.stringify({ file_path: '/p/docs/PLAN.md', content: plan }))).toBe(plan);
    expect(planText('write_file', JSON.stringify({ file_path: '/p/migration-plan.md', content: plan }))).toBe(plan);
    expect(planText('Write', JSON.stringify({ file_path: '/p/README.md', content: plan }))).toBeNull();
    expect(planText('ExitPlanMode', JSON.stringify({ plan }))).toBe(plan);
    const patch = `*** Begin Patch\n*** Add File: PLAN.md\n${plan.split('\n').map((l) => `+${l}`).join('\n')}\n*** End Patch`;
    expect(planText('apply_patch', patch)).toContain('## Next steps');
    expect(kinds(sectionItems(plan))).toEqual(['decision: Use SQLite', 'next: Port the lexer', 'next: Port the parser']);
  });
});

describe('compaction summaries', () => {
  it("reads Claude's compact summary: pending tasks and the optional next step", () => {
    const text =
      'This session is being continued from a previous conversation that ran out of context. The conversation is summarized below:\n' +
      'Summary:\n1. Primary Request and Intent:\n   Inspect the repo.\n6. All user messages:\n    - Run git status\n7. Pending Tasks:\n   - Commit the rounding fix\n   - None.\n' +
      '8. Current Work:\n   Reported the version.\n9. Optional Next Step:\n   Wait for the next request.';
    expect(isCompactionSummary(text)).toBe(true);
    expect(kinds(sectionItems(text))).toEqual(['next: Commit the rounding fix', 'next: Wait for the next request.']);
  });

  it("reads pi's compaction (## Goal … ## Key Decisions … ### Blocked)", () => {
    const text =
      '## Goal\n- Run git status\n\n## Constraints & Preferences\n- Never push to main\n\n## Progress\n### Done\n- [x] Answered: Run git status\n\n### In Progress\n- [ ] (none)\n\n### Blocked\n- Waiting for the API key\n\n' +
      '## Key Decisions\n- **Inspect before changing**: commands and file reads first.\n\n## Next Steps\n1. Wait for the next request.\n\n## Critical Context\n- (none)';
    expect(isCompactionSummary(text)).toBe(true);
    expect(kinds(sectionItems(text))).toEqual([
      'constraint: Never push to main',
      'done: Answered: Run git status',
      'blocker: Waiting for the API key',
      'decision: Inspect before changing: commands and file reads first.',
      'next: Wait for the next request.',
    ]);
  });

  it("reads Gemini CLI's <state_snapshot> from message text", () => {
    const text =
      '<state_snapshot>\n    <overall_goal>\n        Inspect the working tree.\n    </overall_goal>\n\n    <active_constraints>\n        - Read-only: the user did not ask for changes.\n    </active_constraints>\n\n' +
      '    <key_knowledge>\n        - CWD: `/home/ana/projects/demo-app`\n    </key_knowledge>\n\n    <task_state>\n        1. [DONE] Answer the questions so far.\n        2. [TODO] Wait for the next request. <-- CURRENT FOCUS\n    </task_state>\n</state_snapshot>';
    expect(isCompactionSummary(text)).toBe(true);
    expect(kinds(sectionItems(text))).toEqual([
      'constraint: Read-only: the user did not ask for changes.',
      'done: Answer the questions so far.',
      'next: Wait for the next request.',
    ]);
  });

  it('does not take ordinary messages for summaries', () => {
    expect(isCompactionSummary('Run `git status` and tell me where we are.')).toBe(false);
    expect(isCompactionSummary(`Here is the plan:\n${'- step\n'.repeat(40)}`)).toBe(false);
  });
});

describe('user statements', () => {
  const kind = (s: string) => classifySentence(s)?.kind ?? null;

  it('classifies decisions, rejections, constraints, blockers and next steps', () => {
    expect(kind('We decided to use SQLite because the app is single-user.')).toBe('decision');
    expect(kind("Let's go with the queue table, since Redis is another service to run.")).toBe('decision');
    expect(kind('We will NOT use Redis for this.')).toBe('rejection');
    expect(kind("We're not going to use S3 multipart uploads: files are small.")).toBe('rejection');
    expect(kind('The public API must stay backwards compatible.')).toBe('constraint');
    expect(kind("Don't touch the migrations folder.")).toBe('constraint');
    expect(kind('We are blocked on the IAM role from ops.')).toBe('blocker');
    expect(kind('Next, add the --since flag.')).toBe('next');
  });

  it('takes no questions, hypotheticals or routine turns for facts', () => {
    for (const s of ['Should we use Redis?', 'If we decide to use Redis, what changes?', 'Please keep going with the streaming writer.', 'Looks good, continue.', 'Install an ad blocker in the test browser profile.']) {
      expect(kind(s), s).toBeNull();
    }
  });

  it('marks corrections and resolutions', () => {
    expect(classifySentence('Actually, we will store it in SQLite after all.')).toMatchObject({ kind: 'decision', correction: true });
    expect(classifySentence('The IAM role has been granted, so that blocker is resolved.')).toMatchObject({ resolves: 'blocker' });
    expect(classifySentence('The `--since` flag is done and merged.')).toMatchObject({ resolves: 'step' });
  });

  it('splits a "Next steps:" list into its items and keeps a reason with its claim', () => {
    expect(userStatements('Next steps:\n1. Wire the uploader.\n2. Add retries.').map((s) => `${s.kind}: ${s.text}`)).toEqual(['next: Wire the uploader.', 'next: Add retries.']);
    expect(userStatements('Next steps: 1. Wire the uploader 2. Add retries').map((s) => s.text)).toEqual(['Wire the uploader', 'Add retries']);
    expect(userStatements('We decided to use SQLite. Because the app is single-user.').map((s) => s.text)).toEqual(['We decided to use SQLite. Because the app is single-user.']);
  });

  it("reads OpenCode's quoted prompts as the user's words", () => {
    expect(unwrapPrompt('"Next steps:\n1. Wire it.\n2. Test it."')).toBe('Next steps:\n1. Wire it.\n2. Test it.');
    expect(userStatements('"We will NOT use Redis: one service less."').map((s) => `${s.kind}: ${s.text}`)).toEqual(['rejection: We will NOT use Redis: one service less.']);
  });

  it('tells a failing test run from its output when the store kept no exit code', () => {
    expect(failureInOutput('not ok 1 - writes the CSV header\ntests 6, pass 5, fail 1')).toBe(true);
    expect(failureInOutput('Tests: 2 failed, 10 passed')).toBe(true);
    expect(failureInOutput('ℹ tests 6\nℹ pass 6\nℹ fail 0')).toBe(false);
    expect(failureInOutput('Tests: 12 passed, 0 failed')).toBe(false);
  });

  it('tells statements about one subject by their distinctive terms', () => {
    const a = keyTerms('We decided to keep the export state in PostgreSQL because the billing app runs it.');
    const b = keyTerms("Correction: we'll keep the export state in a local SQLite file instead of PostgreSQL.");
    const c = keyTerms('We decided to write the exporter in TypeScript on Node 22.');
    expect(sameSubject(a, b)).toBe(true);
    expect(sameSubject(c, b)).toBe(false);
  });
});
