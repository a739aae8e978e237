/**
 * Plain type guards for values read out of parsed JSON records (the JSONL parsers' hot path: no
 * schema library, no allocation).
 */
export type Obj = Record<string, unknown>;

export function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function str(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}

/** A finite number, else 0 (token counts). */
export function num(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : 0;
}
