import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { parseYamlConfig, YAML_PARSE } from './yaml-parse.js';

describe('parseYamlConfig', () => {
  it('refuses duplicate keys at any depth, with the key named', () => {
    expect(() => parseYamlConfig('a: 1\nb: 2\na: 3\n', 'c.yaml')).toThrow(/key "a" twice/);
    expect(() => parseYamlConfig('hooks:\n  x: []\n  x: []\n', 'c.yaml')).toThrow(/key "x" twice/);
    // 1 and "1" are different keys in YAML.
    expect(parseYamlConfig('1: a\n"1": b\n', 'c.yaml').toJS()).toEqual({ 1: 'b' });
  });

  it("does no pairwise key comparisons (the yaml library's own check is quadratic)", () => {
    // Count the comparisons the library makes when asked to check keys itself.
    let comparisons = 0;
    let text = '';
    for (let i = 0; i < 2000; i++) text += `k${i}: ${i}\n`;
    parseDocument(text, { uniqueKeys: () => (comparisons++, false) });
    expect(comparisons).toBeGreaterThan(1_000_000); // n²/2: what a 40k-key file cost (78 s)
    expect(YAML_PARSE.uniqueKeys).toBe(false);
    expect(() => parseYamlConfig(text, 'c.yaml')).not.toThrow();
  });
});
