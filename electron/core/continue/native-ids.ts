/** Deterministic ids from a plan's key: the same source state continued twice gives the same ids. */
import { createHash } from 'node:crypto';

function digest(key: string, salt: string): Buffer {
  return createHash('sha256').update(`${salt}\0${key}`).digest();
}

/** A version-4-shaped UUID from the key (variant bits set, so every parser takes it). */
export function uuidFrom(key: string, salt: string): string {
  const b = digest(key, salt);
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = b.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** Lowercase hex of the key's digest, `length` characters. */
export function hexFrom(key: string, salt: string, length: number): string {
  return digest(key, salt).toString('hex').slice(0, length);
}

/** The stable key of one source state continued into one target. */
export function continuationKey(sourceSessionId: string, lastSeq: number, target: string): string {
  return createHash('sha256').update(`${sourceSessionId}\0${lastSeq}\0${target}`).digest('hex').slice(0, 32);
}
