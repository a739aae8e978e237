/**
 * The shortest id prefix that names one session, for lists people read and type back (`baton brief
 * <ref>`). Cut at a fixed length, ids that share a long head (Hermes' `20261122_0348…`) all look
 * alike; here each is as long as it must be to match no other session, by native id or full id,
 * the way the session-ref resolver matches prefixes.
 */
import { MIN_PREFIX } from '../index/session-ref.js';

export interface SessionKey {
  id: string;
  nativeId: string;
}

function commonPrefixLength(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/**
 * For each target, its shortest unique native-id prefix (at least `MIN_PREFIX` long, never cut inside
 * a native id shorter than that). `universe` is every session a reference can match, targets included.
 * A native id shared by two sessions (two agents) has no unique prefix: the full id is used.
 */
export function shortestUniquePrefixes(targets: readonly SessionKey[], universe: readonly SessionKey[]): Map<string, string> {
  // Native ids and full ids in one sorted list: a prefix clashes with either.
  const keys = universe.flatMap((s) => [{ text: s.nativeId, owner: s.id }, { text: s.id, owner: s.id }]);
  keys.sort((a, b) => (a.text < b.text ? -1 : a.text > b.text ? 1 : 0));
  const position = new Map<string, number>();
  keys.forEach((k, i) => {
    if (k.text !== k.owner) position.set(k.owner, i); // where each session's native id sits
  });

  const result = new Map<string, string>();
  for (const target of targets) {
    const at = position.get(target.id);
    let longest = 0;
    let twin = false;
    if (at !== undefined) {
      // In sorted order the longest shared head is with the nearest other session on either side.
      for (const step of [-1, 1]) {
        for (let i = at + step; i >= 0 && i < keys.length; i += step) {
          const other = keys[i]!;
          if (other.owner === target.id) continue;
          const shared = commonPrefixLength(target.nativeId, other.text);
          if (shared === target.nativeId.length && other.text === target.nativeId) twin = true;
          longest = Math.max(longest, shared);
          break;
        }
      }
    }
    if (twin) {
      result.set(target.id, target.id);
      continue;
    }
    // The whole native id always works: an exact native id match is tried before prefixes.
    const length = Math.min(Math.max(longest + 1, MIN_PREFIX), target.nativeId.length);
    result.set(target.id, target.nativeId.slice(0, length));
  }
  return result;
}
