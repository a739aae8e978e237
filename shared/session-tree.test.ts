import { describe, expect, it } from 'vitest';
import { nestSubagents } from './session-tree.js';

const s = (id: string, parentId: string | null = null) => ({ id, parentId });

describe('nestSubagents', () => {
  it('puts subagents right under their parent and keeps the order otherwise', () => {
    const list = [s('a:child2', 'a:p'), s('a:x'), s('a:child1', 'a:p'), s('a:p'), s('a:grand', 'a:child1'), s('a:y')];
    expect(nestSubagents(list).map((e) => [e.session.id, e.depth, e.subagent])).toEqual([
      ['a:x', 0, false],
      ['a:p', 0, false],
      ['a:child2', 1, true],
      ['a:child1', 1, true],
      ['a:grand', 2, true],
      ['a:y', 0, false],
    ]);
  });

  it('marks a subagent whose parent is not listed, in place; survives cycles', () => {
    expect(nestSubagents([s('a:1'), s('a:orphan', 'a:gone'), s('a:2')]).map((e) => [e.session.id, e.depth, e.subagent])).toEqual([
      ['a:1', 0, false],
      ['a:orphan', 0, true],
      ['a:2', 0, false],
    ]);
    const cycle = nestSubagents([s('a:1', 'a:2'), s('a:2', 'a:1'), s('a:3', 'a:3')]);
    expect(cycle.map((e) => e.session.id).sort()).toEqual(['a:1', 'a:2', 'a:3']);
  });
});
