/**
 * Connecting to a machine in settings once, to tell the user where it stands: reachable, the Baton
 * there and its version, the agents it reads and how many sessions each holds (counted on the host),
 * or why not with what to do. Used by Settings → Machines and `baton remote test`.
 */
import { machineLabel } from '../../../shared/machines.js';
import { AGENTS, type AgentId } from '../../../shared/model.js';
import type { MachineTestResult } from '../../../shared/api-types.js';
import type { MachineSettings } from '../../../shared/settings.js';
import { RemoteHost, type RemoteHostOptions } from './remote-host.js';

/** The machine named `name` (its label or destination), or null. */
export function findMachine(machines: MachineSettings[], name: string): MachineSettings | null {
  return machines.find((m) => m.destination === name || machineLabel(m) === name) ?? null;
}

export async function testMachine(machine: MachineSettings, opts: RemoteHostOptions = {}): Promise<MachineTestResult> {
  const host = new RemoteHost(machine, opts);
  const result: MachineTestResult = { label: host.label, ok: false, version: null, platform: null, agents: [], unknownAgents: [], error: null };
  try {
    const hello = await host.connect();
    result.version = hello.version;
    result.platform = hello.platform;
    const { counts } = await host.count();
    const known = (a: string): a is AgentId => (AGENTS as readonly string[]).includes(a);
    const wanted: readonly string[] = machine.agents ?? hello.agents;
    result.agents = hello.agents.filter((a) => known(a) && wanted.includes(a)).map((agent) => ({ agent: agent as AgentId, sessions: counts[agent] ?? 0 }));
    // A newer Baton there reads agents this one cannot show yet: say so rather than drop them silently.
    result.unknownAgents = hello.agents.filter((a) => !known(a)).map((agent) => ({ agent, sessions: counts[agent] ?? 0 }));
    result.ok = true;
  } catch (err) {
    result.error = err instanceof Error ? err.message : String(err);
  } finally {
    host.close();
  }
  return result;
}
