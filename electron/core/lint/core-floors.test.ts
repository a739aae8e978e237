// The floors of electron/core as the code has them: every folder is placed on a floor (a new
// folder must be), and the folder import graph has no cycle (lint stops a higher floor; this also
// catches two folders on one floor importing each other).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const core = path.join(root, 'electron', 'core');

async function floors(): Promise<string[][]> {
  const config = (await import(new URL(`file://${path.join(root, 'eslint.config.js')}`).href)) as { CORE_FLOORS: string[][] };
  return config.CORE_FLOORS;
}

/** folder → folders its shipped files import (relative imports inside electron/core). */
function folderGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  const walk = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : /\.tsx?$/.test(e.name) && !/\.test\.ts$/.test(e.name) ? [path.join(dir, e.name)] : []));
  for (const file of walk(core)) {
    const from = path.relative(core, file).split(path.sep);
    if (from.length < 2) continue; // the composition root's files
    for (const m of fs.readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*['"](\.[^'"]+)['"]/g)) {
      const target = path.relative(core, path.resolve(path.dirname(file), m[1]!)).split(path.sep);
      if (target[0] === '..' || target.length < 2 || target[0] === from[0]) continue;
      if (!graph.has(from[0]!)) graph.set(from[0]!, new Set());
      graph.get(from[0]!)!.add(target[0]!);
    }
  }
  return graph;
}

function cycle(graph: Map<string, Set<string>>): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string): string[] | null => {
    if (state.get(node) === 'done') return null;
    if (state.get(node) === 'open') return [...stack.slice(stack.indexOf(node)), node];
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      const found = visit(next);
      if (found) return found;
    }
    stack.pop();
    state.set(node, 'done');
    return null;
  };
  for (const node of graph.keys()) {
    const found = visit(node);
    if (found) return found;
  }
  return null;
}

describe('electron/core floors', () => {
  it('places every folder of the core on a floor', async () => {
    const placed = new Set((await floors()).flat());
    const folders = fs.readdirSync(core, { withFileTypes: true }).filter((e) => e.isDirectory() && e.name !== 'lint').map((e) => e.name);
    expect(folders.filter((f) => !placed.has(f))).toEqual([]);
  });

  it('has no import cycle between folders', () => {
    expect(cycle(folderGraph())).toBeNull();
  });

  it('finds a cycle when there is one (the check can fail)', () => {
    const graph = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['c'])],
      ['c', new Set(['a'])],
    ]);
    expect(cycle(graph)).toEqual(['a', 'b', 'c', 'a']);
  });
});
