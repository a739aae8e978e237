/**
 * The `opencode export`-shaped document (`{info, messages: [{info, parts}]}`) that OpenCode 1.18's
 * own `opencode import` decodes and inserts, built from a ContinuationPlan. Ids follow OpenCode's
 * Identifier scheme (prefix, 12 hex of time·0x1000+counter — inverted for sessions so the newest
 * sorts first — and 14 base62 characters), here derived from the plan so the same plan gives the
 * same rows. The same objects also lay out as OpenCode's JSON storage tree, which Baton's OpenCode
 * reader reads back before anything is imported.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ContinuationPlan } from '../native-writer.js';
import { writeFileAtomic } from '../../fs/atomic-write.js';
import { continuedMessages, planHex, roughTokens } from './continued-turns.js';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const MASK48 = 0xffffffffffffn;

export function openCodeId(plan: ContinuationPlan, prefix: 'ses' | 'msg' | 'prt', ms: number, counter: number, descending = false): string {
  const n = BigInt(ms) * 0x1000n + BigInt(counter);
  const time = ((descending ? ~n : n) & MASK48).toString(16).padStart(12, '0');
  const digest = Buffer.from(planHex(plan, `opencode-${prefix}-${counter}`, 28), 'hex');
  let rand = '';
  for (let i = 0; i < 14; i++) rand += BASE62[digest[i]! % 62];
  return `${prefix}_${time}${rand}`;
}

export interface OpenCodeModel {
  providerID: string;
  modelID: string;
}

export interface OpenCodeDocument {
  info: Record<string, unknown> & { id: string };
  messages: { info: Record<string, unknown> & { id: string }; parts: (Record<string, unknown> & { id: string })[] }[];
}

/** `agent`: the primary agent the messages name (OpenCode's `build`; Kilo Code's fork calls it `code`). */
export function openCodeDocument(plan: ContinuationPlan, model: OpenCodeModel, version: string, agent = 'build'): OpenCodeDocument {
  const messages = continuedMessages(plan);
  const first = messages[0]!.ms;
  const last = messages[messages.length - 1]!.ms;
  const sessionID = openCodeId(plan, 'ses', first, 0, true);
  let parentID: string | null = null;
  const out: OpenCodeDocument['messages'] = messages.map((m, i) => {
    const id = openCodeId(plan, 'msg', m.ms, i);
    const part = { id: openCodeId(plan, 'prt', m.ms, i), sessionID, messageID: id, type: 'text', text: m.text };
    if (m.role === 'user') {
      parentID = id;
      return { info: { id, sessionID, role: 'user', time: { created: m.ms }, agent, model }, parts: [part] };
    }
    const info = {
      id,
      sessionID,
      role: 'assistant',
      ...(parentID ? { parentID } : {}),
      mode: agent,
      agent,
      path: { cwd: plan.cwd, root: plan.cwd },
      cost: 0,
      tokens: { input: 0, output: roughTokens(m.text), reasoning: 0, cache: { read: 0, write: 0 } },
      modelID: model.modelID,
      providerID: model.providerID,
      time: { created: m.ms, completed: m.ms },
      finish: 'stop',
    };
    return { info, parts: [part] };
  });
  const slug = `continued-${planHex(plan, 'opencode-slug', 8)}`;
  return {
    info: { id: sessionID, slug, projectID: 'global', directory: plan.cwd, title: plan.title, version, time: { created: first, updated: last } },
    messages: out,
  };
}

/** The document as OpenCode's JSON storage tree under `<dataDir>/storage/` (for read-back only). */
export function writeStorageTree(dataDir: string, doc: OpenCodeDocument): void {
  const storage = path.join(dataDir, 'storage');
  writeFileAtomic(path.join(storage, 'session', String(doc.info.projectID), `${doc.info.id}.json`), JSON.stringify(doc.info));
  for (const m of doc.messages) {
    writeFileAtomic(path.join(storage, 'message', doc.info.id, `${m.info.id}.json`), JSON.stringify(m.info));
    for (const p of m.parts) writeFileAtomic(path.join(storage, 'part', m.info.id, `${p.id}.json`), JSON.stringify(p));
  }
}

/** The configured default model (`model: "provider/model"` in the first of `names` in the global config folder that sets one), else null. */
export function openCodeDefaultModel(configDir: string, names: readonly string[] = ['opencode.json', 'opencode.jsonc', 'config.json']): OpenCodeModel | null {
  for (const name of names) {
    let text: string;
    try {
      text = fs.readFileSync(path.join(configDir, name), 'utf8');
    } catch {
      continue;
    }
    const m = /"model"\s*:\s*"([^"/]+)\/([^"]+)"/.exec(text);
    if (m) return { providerID: m[1]!, modelID: m[2]! };
  }
  return null;
}
