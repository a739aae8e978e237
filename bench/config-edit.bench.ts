/**
 * Editing a big agent config: Hermes' config.yaml with 40k keys (issue #25: 78 s before the YAML
 * parse went linear). Registering and removing Baton's MCP entry and setting its hooks, each a
 * full parse, proof and splice, should stay well under a second.
 */
import { addYamlEntry, removeYamlEntry } from '../electron/core/install/config/edit-yaml.js';
import { setYamlHooks } from '../electron/core/install/hooks/yaml-hooks.js';
import { mcpEndpoint } from '../electron/core/install/endpoint.js';
import { goalRow, type BenchContext, type BenchRow } from './harness.js';

function ms(work: () => void): number {
  const start = process.hrtime.bigint();
  work();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

export async function run(ctx: BenchContext): Promise<BenchRow[]> {
  const keys = Math.max(4000, Math.round(40_000 * Math.min(1, ctx.scale * 10)));
  let text = '# a big Hermes config\n';
  for (let i = 0; i < keys; i++) text += `key_${i}: value ${i}\n`;
  const endpoint = mcpEndpoint(8765, 'tok_bench_bench_bench_bench_bench_0000');
  let added = '';
  const add = ms(() => (added = addYamlEntry(text, endpoint, 'config.yaml')));
  const remove = ms(() => removeYamlEntry(added, endpoint.name, 'config.yaml'));
  const hooks = ms(() => setYamlHooks(text, [{ event: 'on_session_end', command: "node '/opt/baton/bin/baton.mjs' hook stop --agent hermes", timeout: 10 }], 'config.yaml'));
  const note = `${keys} keys`;
  return [
    goalRow('config-edit', 'YAML mcp entry add', add, 'ms', { op: '<', target: 1000 }, note),
    goalRow('config-edit', 'YAML mcp entry remove', remove, 'ms', { op: '<', target: 1000 }, note),
    goalRow('config-edit', 'YAML hooks set', hooks, 'ms', { op: '<', target: 1000 }, note),
  ];
}
