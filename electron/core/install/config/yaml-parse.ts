/**
 * Parsing a YAML config in time linear in its size. The `yaml` library's duplicate-key check
 * compares each new key with every earlier key of its mapping (quadratic: 78 s for a 40k-key
 * file); it is switched off and done here with a set per mapping instead. A config with duplicate
 * keys is refused: which of the two the agent reads is not Baton's to guess.
 */
import { isMap, isScalar, parseDocument, visit, type Document } from 'yaml';
import { ConfigEditError } from './config-edit-error.js';

/** The options every YAML parse of a config uses. */
export const YAML_PARSE = { uniqueKeys: false } as const;

export function parseYamlDocument(text: string): Document {
  return parseDocument(text, YAML_PARSE);
}

/** The first key that appears twice in one mapping, or null. */
export function duplicateYamlKey(doc: Document): string | null {
  let found: string | null = null;
  visit(doc, {
    Map(_key, map) {
      const seen = new Set<string>();
      for (const pair of map.items) {
        if (!isScalar(pair.key)) continue;
        const value: unknown = pair.key.value;
        const id = `${typeof value}:${String(value)}`;
        if (seen.has(id)) {
          found = String(value);
          return visit.BREAK;
        }
        seen.add(id);
      }
      return undefined;
    },
  });
  return found;
}

/** A config's document, or a ConfigEditError saying why Baton will not edit it. */
export function parseYamlConfig(text: string, file: string): Document {
  const doc = parseYamlDocument(text);
  if (doc.errors.length > 0) {
    const first = doc.errors[0]!;
    const line = first.linePos?.[0]?.line;
    throw new ConfigEditError(`${file} is not valid YAML${line ? ` (line ${line})` : ''}: ${first.message.split('\n')[0]}; fix it first — Baton leaves it untouched.`);
  }
  const duplicate = duplicateYamlKey(doc);
  if (duplicate !== null) throw new ConfigEditError(`${file} has the key "${duplicate}" twice in one mapping; fix it first — Baton leaves it untouched.`);
  if (doc.contents !== null && !isMap(doc.contents)) {
    throw new ConfigEditError(`${file} does not hold a mapping at the top level; Baton leaves it untouched.`);
  }
  return doc;
}
