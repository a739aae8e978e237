/**
 * A read batch in the shape that crosses from the read-ahead worker to the writer's thread cheaply.
 *
 * Structured clone serializes every message object with all eleven property names and rebuilds it
 * property by property on the other side; for a cold index (1 M messages) that cost ~2 s of CPU on
 * each thread. Packed, the messages travel as columns: small numbers in typed arrays (transferred,
 * not copied), texts as arrays of strings, which the serializer copies as raw characters, and the
 * short fields joined into one string. The writer's side rebuilds the Message objects from a literal, which V8 does far
 * faster than the deserializer.
 */
import { MESSAGE_KINDS as KINDS, MESSAGE_ROLES as ROLES, type Message } from '../../../shared/model.js';
import type { JsonValue } from '../sources/types.js';
import type { IndexBatch } from '../index/index-writer.js';

// Role and kind share one flag byte, two bits each (see PackedMessages.flags).
if (ROLES.length > 4 || KINDS.length > 4) throw new Error('batch-pack: a message role or kind no longer fits in two bits');
const roleCode = new Map(ROLES.map((r, i) => [r, i] as const));
const kindCode = new Map(KINDS.map((k, i) => [k, i] as const));
/** Flag bit: the message's FTS text is its text (sent once). */
const SAME_FORM = 32;
const SHORT_FIELDS = 4;

export interface PackedMessages {
  count: number;
  /** Distinct session ids of the batch; `session[i]` indexes into it. */
  sessionIds: string[];
  session: Uint32Array;
  seq: Float64Array;
  /** Bits 0–1 role, 2–3 kind, 4 isError, 5 the FTS text is the text itself (SAME_FORM). */
  flags: Uint8Array;
  text: string[];
  /**
   * The short fields (SHORT_FIELDS per message: toolName, toolCallId, timestamp, nativeId) laid end
   * to end in one string. Sent one by one, each short string cost the serializer and deserializer
   * more than its characters; joined, they cross as one copy and the writer takes slices.
   */
  short: string;
  /** `shortEnds[i * SHORT_FIELDS + f]`: where short field f of message i ends in `short` (it starts where the one before ended). */
  shortEnds: Uint32Array;
  /** Bit f set: short field f of the message is null. */
  shortNulls: Uint8Array;
  /**
   * The FTS text prepared for each message (null: not searchable, or SAME_FORM), when the batch
   * carries them. Most messages' FTS text is their text, the same string: the serializer does not
   * share strings, so it would copy (and the writer's side allocate) every such text twice.
   */
  indexForms: (string | null)[] | null;
}

export interface PackedBatch extends Omit<IndexBatch, 'messages' | 'indexForms' | 'cursor' | 'cursorJson'> {
  messages: PackedMessages;
  /** The cursor as JSON: one string to copy, where the object could be a 10k-entry map; null: none. */
  cursorJson: string | null;
}

/** Packs `batch` and returns it with the buffers to pass as postMessage's transfer list. */
export function packBatch(batch: IndexBatch): { packed: PackedBatch; transfer: ArrayBuffer[] } {
  const { messages, indexForms, cursor, cursorJson: _, ...rest } = batch;
  const n = messages.length;
  const sessionIds: string[] = [];
  const sessionIndex = new Map<string, number>();
  const session = new Uint32Array(n);
  const seq = new Float64Array(n);
  const flags = new Uint8Array(n);
  const text = new Array<string>(n);
  const shortParts: string[] = [];
  const shortEnds = new Uint32Array(n * SHORT_FIELDS);
  const shortNulls = new Uint8Array(n);
  let end = 0;
  let e = 0;
  const putShort = (i: number, field: number, value: string | null) => {
    if (value === null) shortNulls[i]! |= 1 << field;
    else {
      shortParts.push(value);
      end += value.length;
    }
    shortEnds[e++] = end;
  };
  const forms = indexForms?.length === n ? new Array<string | null>(n) : null;
  for (let i = 0; i < n; i++) {
    const m = messages[i]!;
    let s = sessionIndex.get(m.sessionId);
    if (s === undefined) {
      s = sessionIds.push(m.sessionId) - 1;
      sessionIndex.set(m.sessionId, s);
    }
    const role = roleCode.get(m.role);
    const kind = kindCode.get(m.kind);
    if (role === undefined || kind === undefined) throw new Error(`cannot pack a message with role ${String(m.role)} and kind ${String(m.kind)}`);
    session[i] = s;
    seq[i] = m.seq;
    const form = indexForms?.[i] ?? null;
    const same = forms !== null && form === m.text;
    if (forms) forms[i] = same ? null : form;
    flags[i] = role | (kind << 2) | (m.isError ? 16 : 0) | (same ? SAME_FORM : 0);
    text[i] = m.text;
    putShort(i, 0, m.toolName);
    putShort(i, 1, m.toolCallId);
    putShort(i, 2, m.timestamp);
    putShort(i, 3, m.nativeId);
  }
  const packed: PackedBatch = {
    ...rest,
    cursorJson: cursor === undefined ? null : JSON.stringify(cursor),
    messages: { count: n, sessionIds, session, seq, flags, text, short: shortParts.join(''), shortEnds, shortNulls, indexForms: forms },
  };
  return { packed, transfer: [session.buffer, seq.buffer, flags.buffer, shortEnds.buffer, shortNulls.buffer] };
}

/**
 * The batch `packBatch` packed, as the writer takes it. Its `cursor` is parsed from `cursorJson`
 * only if asked for (the writer stores the JSON as it is).
 */
export function unpackBatch(packed: PackedBatch): IndexBatch {
  const { messages: p, cursorJson, ...rest } = packed;
  const messages = new Array<Message>(p.count);
  const forms = p.indexForms;
  const { short, shortEnds, shortNulls } = p;
  const shortField = (i: number, f: number): string | null => {
    if (shortNulls[i]! & (1 << f)) return null;
    const k = i * SHORT_FIELDS + f;
    return short.slice(k === 0 ? 0 : shortEnds[k - 1], shortEnds[k]);
  };
  for (let i = 0; i < p.count; i++) {
    const f = p.flags[i]!;
    if (forms && f & SAME_FORM) forms[i] = p.text[i]!;
    messages[i] = {
      sessionId: p.sessionIds[p.session[i]!]!,
      seq: p.seq[i]!,
      role: ROLES[f & 3]!,
      kind: KINDS[(f >> 2) & 3]!,
      text: p.text[i]!,
      toolName: shortField(i, 0),
      toolCallId: shortField(i, 1),
      isError: (f & 16) !== 0,
      timestamp: shortField(i, 2),
      nativeId: shortField(i, 3),
    };
  }
  const batch = (p.indexForms ? { ...rest, messages, indexForms: p.indexForms } : { ...rest, messages }) as IndexBatch;
  if (cursorJson === null) return batch;
  batch.cursorJson = cursorJson;
  let cursor: JsonValue | undefined;
  Object.defineProperty(batch, 'cursor', { enumerable: true, get: () => (cursor ??= JSON.parse(cursorJson) as JsonValue) });
  return batch;
}
