/**
 * Writes the planted-facts scenario into agent stores shaped like the real ones (field names and
 * record types as the fixture stores in ../shared/fixtures show them): a Claude Code transcript
 * (`~/.claude/projects/<cwd>/<id>.jsonl`, TodoWrite calls, a compact summary) and a Codex rollout
 * (`~/.codex/sessions/YYYY/MM/DD/rollout-…jsonl`, exec_command calls, update_plan, a `compacted`
 * record). Every user turn is a resumed run appended to the same session, as `--resume` /
 * `codex exec resume` leave it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { claudeTranscriptLines, claudeProjectDir, type Turn } from '../../testing/briefs/claude-transcript.js';
import type { Step } from './scenario.js';

export const PROJECT = '/home/ana/projects/invoice-export';
export const START = new Date('2026-11-23T09:00:00.000Z');

function claudeSummary(pending: string[]): string {
  return (
    'This session is being continued from a previous conversation that ran out of context. The conversation is summarized below:\n' +
    'Analysis:\nThe user is building an invoice CSV exporter.\n\nSummary:\n' +
    '1. Primary Request and Intent:\n   Build a CLI that exports invoices to CSV and uploads them to the finance bucket.\n' +
    '2. Key Technical Concepts:\n   - Node streams\n   - CSV\n' +
    '3. Files and Code Sections:\n   - src/csv.ts\n   - src/stream.ts\n' +
    '4. Errors and fixes:\n   - The CSV header test failed on the column order; fixed.\n' +
    '5. Problem Solving:\n   Column order fixed.\n' +
    '6. All user messages:\n   - (see transcript)\n' +
    `7. Pending Tasks:\n${pending.map((p) => `   - ${p}`).join('\n')}\n` +
    '8. Current Work:\n   Writing the streaming CSV writer.\n' +
    '9. Optional Next Step:\n   Continue with the streaming writer.'
  );
}

export function claudeTurns(turns: Step[][]): Turn[] {
  const out: Turn[] = [];
  for (const turn of turns) {
    for (const step of turn) {
      switch (step.kind) {
        case 'user':
          out.push({ role: 'user', text: step.text });
          break;
        case 'reply':
          out.push({ role: 'assistant', text: step.text });
          break;
        case 'shell':
          out.push({ role: 'tool', name: 'Bash', input: { command: step.command, description: `Run ${step.command}` }, result: step.output.replace(/\nProcess exited with code \d+$/, ''), isError: step.exitCode !== 0 });
          break;
        case 'read':
          out.push({ role: 'tool', name: 'Read', input: { file_path: path.join(PROJECT, step.file) }, result: step.output });
          break;
        case 'edit':
          out.push({ role: 'tool', name: 'Edit', input: { file_path: path.join(PROJECT, step.file), old_string: step.before, new_string: step.after }, result: `The file ${path.join(PROJECT, step.file)} has been updated.` });
          break;
        case 'write':
          out.push({ role: 'tool', name: 'Write', input: { file_path: path.join(PROJECT, step.file), content: step.content }, result: `File created successfully at: ${path.join(PROJECT, step.file)}` });
          break;
        case 'todo':
          out.push({
            role: 'tool',
            name: 'TodoWrite',
            input: { todos: step.items.map((i) => ({ content: i.text, status: i.status, activeForm: i.text.replace(/^(\w+)/, '$1ing') })) },
            result: 'Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress.',
          });
          break;
        case 'compact':
          out.push({ role: 'compact', summary: claudeSummary(step.pending) });
          break;
      }
    }
  }
  return out;
}

export function writeClaude(home: string, sessionId: string, turns: Step[][]): string {
  const dir = claudeProjectDir(home, PROJECT);
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${sessionId}.jsonl`);
  const lines = claudeTranscriptLines({ home, sessionId, cwd: PROJECT, gitBranch: 'feature/invoice-export', model: 'claude-opus-5-5', start: START, turns: claudeTurns(turns) });
  fs.writeFileSync(file, lines.join('\n') + '\n');
  return file;
}

/** Codex's rollout: one JSON record per line, `{timestamp, type, payload}`. */
export function writeCodex(home: string, threadId: string, turns: Step[][]): string {
  const dir = path.join(home, '.codex', 'sessions', '2026', '11', '23');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `rollout-2026-11-23T09-00-00-${threadId}.jsonl`);
  const lines: string[] = [];
  let n = 0;
  const ts = () => new Date(START.getTime() + ++n * 1000).toISOString();
  const rec = (type: string, payload: Record<string, unknown>) => lines.push(JSON.stringify({ timestamp: ts(), type, payload }));
  const id = (prefix: string) => `${prefix}_${threadId.slice(0, 8)}${String(n).padStart(8, '0')}`;
  rec('session_meta', {
    id: threadId,
    session_id: threadId,
    timestamp: START.toISOString(),
    cwd: PROJECT,
    originator: 'codex_exec',
    cli_version: '0.169.0',
    source: 'exec',
    model_provider: 'mock',
    git: { branch: 'feature/invoice-export', commit_hash: '3f9c2a1b7d5e8f0a1c2b3d4e5f6a7b8c9d0e1f2a' },
  });
  const call = (name: string, args: Record<string, unknown>, output: string) => {
    const callId = id('call');
    rec('response_item', { type: 'function_call', id: id('fc'), name, arguments: JSON.stringify(args), call_id: callId });
    rec('response_item', { type: 'function_call_output', call_id: callId, output });
  };
  for (const turn of turns) {
    rec('turn_context', { cwd: PROJECT, approval_policy: 'never', model: 'gpt-5.5' });
    for (const step of turn) {
      switch (step.kind) {
        case 'user':
          rec('response_item', { type: 'message', id: id('msg'), role: 'user', content: [{ type: 'input_text', text: step.text }] });
          rec('event_msg', { type: 'user_message', message: step.text, images: [] });
          break;
        case 'reply':
          rec('response_item', { type: 'message', id: id('msg'), role: 'assistant', content: [{ type: 'output_text', text: step.text, annotations: [] }] });
          break;
        case 'shell': {
          const out = `Chunk ID: ${n.toString(16)}\nWall time: 0.4000 seconds\nProcess exited with code ${step.exitCode}\nOriginal token count: 40\nOutput:\n${step.output.replace(/\nProcess exited with code \d+$/, '')}`;
          call('exec_command', { cmd: step.command, workdir: PROJECT }, out);
          break;
        }
        case 'read':
          call('exec_command', { cmd: `sed -n '1,200p' ${step.file}`, workdir: PROJECT }, `Process exited with code 0\nOutput:\n${step.output}`);
          break;
        case 'edit':
        case 'write': {
          const body = step.kind === 'edit' ? `@@\n-${step.before}\n+${step.after}` : step.content.split('\n').map((l) => `+${l}`).join('\n');
          const header = step.kind === 'edit' ? `*** Update File: ${step.file}` : `*** Add File: ${step.file}`;
          const callId = id('call');
          rec('response_item', { type: 'custom_tool_call', id: id('ctc'), name: 'apply_patch', input: `*** Begin Patch\n${header}\n${body}\n*** End Patch`, call_id: callId, status: 'completed' });
          rec('response_item', { type: 'custom_tool_call_output', call_id: callId, output: 'Success. Updated the following files:\nM ' + step.file });
          break;
        }
        case 'todo':
          call('update_plan', { explanation: 'Tracking the exporter work.', plan: step.items.map((i) => ({ step: i.text, status: i.status })) }, 'Plan updated');
          break;
        case 'compact':
          rec('compacted', {
            message:
              'Summary of the conversation so far (handoff for the next context window).\n\n## Goal\nExport invoices to CSV and upload them to the finance bucket.\n\n' +
              `## Key Decisions\n${step.decisions.map((d) => `- ${d}`).join('\n')}\n\n## Next Steps\n${step.pending.map((p) => `- ${p}`).join('\n')}`,
            replacement_history: [],
          });
          break;
      }
    }
  }
  fs.writeFileSync(file, lines.join('\n') + '\n');
  return file;
}
