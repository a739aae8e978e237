/**
 * Delimit's seven-field handoff record (methodology v1): a flat JSON object written to
 * `~/.delimit/sessions/<id>.json`. Fields are only ever added, never renamed, so the schema is
 * passthrough for unknown keys when reading and exact when writing.
 */
import { labelled } from '../item-label.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { itemLine, type BriefData } from '../brief-data.js';
import { moreLine } from '../fit-items.js';
import { writeFileAtomic } from '../../fs/atomic-write.js';

export const DelimitRecordSchema = z.object({
  id: z.string().regex(/^session_\d{8}_\d{6}$/, 'id must be session_YYYYMMDD_HHMMSS'),
  timestamp: z.iso.datetime({ offset: true }),
  venture: z.string().min(1).default('all'),
  summary: z.string(),
  items_completed: z.array(z.string()),
  items_added: z.array(z.string()),
  key_decisions: z.array(z.string()),
  blockers: z.array(z.string()),
  files_changed: z.array(z.string()),
});
export type DelimitRecord = z.infer<typeof DelimitRecordSchema>;

export function delimitId(at: Date): string {
  const iso = at.toISOString(); // 2026-05-12T14:30:12.000Z
  return `session_${iso.slice(0, 10).replace(/-/g, '')}_${iso.slice(11, 19).replace(/:/g, '')}`;
}

/** Project name used as the venture tag: the cwd's last segment, or Delimit's default `all`. */
function ventureOf(cwd: string | null): string {
  const base = cwd ? path.basename(cwd.replace(/[\\/]+$/, '')) : '';
  return base || 'all';
}

export function toDelimitRecord(data: BriefData, now: Date): DelimitRecord {
  const at = data.checkpoint ? new Date(data.checkpoint.createdAt) : now;
  const summary =
    data.state.summary?.trim() ||
    (data.goal ? `Session started with: ${data.goal.trim()}` : `Session ${data.session.id} (no summary recorded).`);
  const left = data.omitted;
  // Items cut to the budget are counted in a last entry of their list ("… 12 more decisions not shown").
  const more = (n: number | undefined, noun: string) => (n ? [moreLine(n, noun)] : []);
  const files = [
    ...data.files.map((f) => f.path),
    ...data.declaredFiles,
    ...more(data.filesTotal - data.files.length + (left.files ?? 0), 'files'),
  ];
  const record: DelimitRecord = {
    id: delimitId(at),
    timestamp: at.toISOString(),
    venture: ventureOf(data.session.cwd),
    summary,
    items_completed: [...data.state.itemsCompleted.map(itemLine), ...more(left.itemsCompleted, 'completed items')],
    items_added: [...[...data.open.itemsAdded, ...data.state.nextSteps].map(itemLine), ...more((left.itemsAdded ?? 0) + (left.nextSteps ?? 0), 'open items and next steps')],
    // Seven fixed fields: a rejected alternative is a decision too ("Rejected: …"), so it rides along here.
    key_decisions: [
      ...data.decisions.map(itemLine),
      ...more(left.decisions, 'decisions'),
      ...data.rejected.map((r) => labelled('Rejected', itemLine(r))),
      ...more(left.rejected, 'rejected alternatives'),
    ],
    blockers: [...data.open.blockers.map(itemLine), ...more(left.blockers, 'blockers')],
    files_changed: files,
  };
  return DelimitRecordSchema.parse(record);
}

export function defaultDelimitDir(home = os.homedir()): string {
  return path.join(home, '.delimit', 'sessions');
}

/** Writes the record as `<dir>/<id>.json` (atomic). Only called when the user asks for it. */
export function writeDelimitRecord(record: DelimitRecord, dir: string): string {
  const parsed = DelimitRecordSchema.parse(record);
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${parsed.id}.json`);
  writeFileAtomic(file, JSON.stringify(parsed, null, 2) + '\n');
  return file;
}
