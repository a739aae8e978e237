/**
 * Context Relay's files-as-truth layout, written into a project folder only when the user asks:
 * `state.json` (replaced), `decisions.md` (append-only: only decisions not already in it are
 * added), `todos.json` (merged by title, so the user's own todos and statuses are kept).
 */
import { labelled, withoutLabel } from '../item-label.js';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { itemLine, type BriefData } from '../brief-data.js';
import { writeFileAtomic } from '../../fs/atomic-write.js';

export const RelayStateSchema = z.object({
  phase: z.string(),
  current_task: z.string(),
  progress: z.object({
    completed: z.array(z.string()),
    in_progress: z.string(),
    blocked: z.array(z.string()),
    next_steps: z.array(z.string()),
  }),
  last_update: z.string(),
  session_id: z.string(),
  notes: z.string(),
});
export type RelayState = z.infer<typeof RelayStateSchema>;

export const RelayTodoSchema = z.object({
  id: z.string(),
  title: z.string(),
  priority: z.enum(['high', 'medium', 'low']),
  status: z.enum(['pending', 'in_progress', 'completed', 'blocked']),
  created: z.string(),
  updated: z.string().nullable(),
  notes: z.string(),
  completed_at: z.string().optional(),
});
export const RelayTodosSchema = z.object({ todos: z.array(RelayTodoSchema.passthrough()), last_review: z.string().nullable() }).passthrough();
export type RelayTodos = z.infer<typeof RelayTodosSchema>;

export interface RelayWriteResult {
  files: string[];
  decisionsAppended: number;
  todosAdded: number;
  todosUpdated: number;
}

export function toRelayState(data: BriefData): RelayState {
  return {
    phase: data.checkpoint ? 'handoff' : 'in_progress',
    current_task: (data.goal ?? data.session.title ?? data.session.id).trim().split('\n')[0]!.slice(0, 500),
    progress: {
      completed: data.state.itemsCompleted.map(itemLine),
      in_progress: data.state.summary?.trim() ?? '',
      blocked: data.open.blockers.map(itemLine),
      next_steps: data.state.nextSteps.map(itemLine),
    },
    last_update: data.checkpoint?.createdAt ?? data.now,
    session_id: data.session.id,
    notes: data.files.length ? `Files touched: ${data.files.map((f) => f.path).join(', ')}` : '',
  };
}

export function writeContextRelay(data: BriefData, dir: string): RelayWriteResult {
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) throw new Error(`Context Relay folder does not exist: ${dir}`);
  const at = data.checkpoint?.createdAt ?? data.now;
  const files: string[] = [];

  const stateFile = path.join(dir, 'state.json');
  writeFileAtomic(stateFile, JSON.stringify(RelayStateSchema.parse(toRelayState(data)), null, 2) + '\n');
  files.push(stateFile);

  const decisionsFile = path.join(dir, 'decisions.md');
  const existing = fs.existsSync(decisionsFile) ? fs.readFileSync(decisionsFile, 'utf8') : '';
  const nextNumber = [...existing.matchAll(/^## ADR-(\d+):/gm)].reduce((max, m) => Math.max(max, Number(m[1])), 0) + 1;
  // Rejected alternatives are ADRs too, with status Rejected (Context Relay's decision log keeps both).
  const records = [...data.decisions.map((d) => ({ d, status: 'Accepted' })), ...data.rejected.map((d) => ({ d, status: 'Rejected' }))];
  const fresh = records.filter(({ d }) => !existing.includes(`- ${labelled('Decision', d.text.replace(/\n+/g, ' '))}`));
  if (fresh.length) {
    const header = existing ? '' : '# Architecture Decision Records\n';
    const entries = fresh.map(({ d, status }, i) => {
      const num = String(nextNumber + i).padStart(3, '0');
      const text = withoutLabel('Decision', d.text.replace(/\n+/g, ' '));
      const context =
        d.source === 'pin'
          ? `pinned turn #${d.seq} of session ${data.session.id}`
          : d.seq === null
            ? `checkpoint of session ${data.session.id}`
            : `message #${d.seq} of session ${data.session.id}${d.corrects.length ? ` (corrects ${d.corrects.map((c) => `#${c}`).join(', ')})` : ''}`;
      return [
        `## ADR-${num}: ${text.slice(0, 80)}`,
        `- Date: ${at.slice(0, 10)}`,
        `- Status: ${status}`,
        `- Context: ${context}`,
        `- ${labelled('Decision', text)}`,
        `- Consequences: ${status === 'Rejected' ? 'do not bring it back in later sessions' : 'treat as settled in later sessions'}`,
      ].join('\n');
    });
    const sep = existing && !existing.endsWith('\n\n') ? (existing.endsWith('\n') ? '\n' : '\n\n') : '';
    fs.appendFileSync(decisionsFile, `${sep}${header ? header + '\n' : ''}${entries.join('\n\n')}\n`);
  }
  files.push(decisionsFile);

  const todosFile = path.join(dir, 'todos.json');
  let todos: RelayTodos = { todos: [], last_review: null };
  if (fs.existsSync(todosFile)) {
    const parsed = RelayTodosSchema.safeParse(JSON.parse(fs.readFileSync(todosFile, 'utf8')));
    if (!parsed.success) throw new Error(`${todosFile} is not a Context Relay todo list; left untouched`);
    todos = parsed.data;
  }
  let added = 0;
  let updated = 0;
  const upsert = (title: string, status: 'pending' | 'completed' | 'blocked', priority: 'high' | 'medium', notes: string) => {
    const found = todos.todos.find((t) => t.title === title);
    if (found) {
      if (found.status !== status) {
        found.status = status;
        found.updated = at;
        if (status === 'completed') found.completed_at = at;
        updated++;
      }
      return;
    }
    const maxId = todos.todos.reduce((m, t) => Math.max(m, Number(t.id.match(/(\d+)$/)?.[1] ?? 0)), 0);
    todos.todos.push({
      id: `TODO-${String(maxId + 1).padStart(3, '0')}`,
      title,
      priority,
      status,
      created: at,
      updated: null,
      notes,
      ...(status === 'completed' ? { completed_at: at } : {}),
    });
    added++;
  };
  const from = (s: { seq: number | null }) => (s.seq === null ? data.session.id : `${data.session.id} #${s.seq}`);
  data.state.nextSteps.forEach((s) => upsert(s.text, 'pending', 'high', `next step from ${from(s)}`));
  data.open.itemsAdded.forEach((s) => upsert(s.text, 'pending', 'medium', `raised in ${from(s)}`));
  data.open.blockers.forEach((s) => upsert(s.text, 'blocked', 'high', `blocker in ${from(s)}`));
  data.state.itemsCompleted.forEach((s) => upsert(s.text, 'completed', 'medium', `completed in ${from(s)}`));
  todos.last_review = at;
  writeFileAtomic(todosFile, JSON.stringify(todos, null, 2) + '\n');
  files.push(todosFile);
  return { files, decisionsAppended: fresh.length, todosAdded: added, todosUpdated: updated };
}
