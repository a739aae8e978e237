import type { Command } from 'commander';
import type { MachineSettings } from '../../../shared/settings.js';

/** Heavy modules load inside the actions: `baton --help` must not pay for them. */
async function openSettings() {
  const { SettingsStore } = await import('../../core/settings/settings-store.js');
  const { batonDataDir, currentEnvironment } = await import('../../core/paths.js');
  return new SettingsStore(batonDataDir(currentEnvironment()));
}

/** Saves the machine list: through the running Baton when there is one (it applies it live), else to the file. */
async function saveMachines(store: { update(patch: { machines: MachineSettings[] }): unknown }, machines: MachineSettings[]): Promise<void> {
  const { updateSettingsViaServer } = await import('../cli-api.js');
  if (!(await updateSettingsViaServer({ machines }))) store.update({ machines });
}

function findMachine(machines: MachineSettings[], name: string, label: (m: MachineSettings) => string): number {
  const index = machines.findIndex((m) => m.destination === name || label(m) === name);
  if (index < 0) throw new Error(`no machine named ${name} (see \`baton remote list\`)`);
  return index;
}

export function registerRemote(program: Command): void {
  // The host side: started by the laptop over ssh, speaks JSON lines on stdin/stdout.
  program
    .command('remote-serve', { hidden: true })
    .description("Serve this machine's sessions to a Baton on another machine, over stdin/stdout (run by ssh).")
    .requiredOption('--stdio', 'speak the protocol on stdin/stdout')
    .action(async () => {
      const { serveRemote } = await import('../../core/remote/remote-serve.js');
      const { createLocalAdapters } = await import('../../core/sources/local-adapters.js');
      const { currentEnvironment } = await import('../../core/paths.js');
      const { BATON_VERSION } = await import('../../core/version.js');
      const environment = currentEnvironment();
      const settings = (await openSettings()).get();
      // This host's own stores only: a host never reaches on to the machines in its own settings.
      const adapters = createLocalAdapters({ agents: settings.agents }, environment);
      await serveRemote(process.stdin, process.stdout, { adapters, version: BATON_VERSION, home: environment.home, platform: environment.platform });
      // The laptop hung up: nothing left to serve (a watcher would hold the process). Flush replies first.
      process.stdout.write('', () => process.exit(0));
    });

  const remote = program.command('remote').description('Read agent sessions on other machines over your own ssh.');
  remote
    .command('add <destination>')
    .description('Add a machine: an alias from ~/.ssh/config or user@host[:port].')
    .option('--label <label>', 'name shown in session ids (default: the host name)')
    .option('--agents <list>', 'comma-separated agents to read there (default: all)')
    .option('--command <command>', 'how to start Baton there', 'baton')
    .option('--ssh-arg <arg>', 'an extra ssh argument, repeatable: --ssh-arg=-F --ssh-arg=~/.ssh/work_config', (arg: string, all: string[]) => [...all, arg], [] as string[])
    .option('--disabled', 'add it switched off')
    .action(async (destination: string, opts: { label?: string; agents?: string; command: string; sshArg: string[]; disabled?: boolean }) => {
      const { MachineSettingsSchema } = await import('../../../shared/settings.js');
      const { machineLabel } = await import('../../../shared/machines.js');
      const store = await openSettings();
      const machine = MachineSettingsSchema.parse({
        destination,
        label: opts.label ?? null,
        enabled: !opts.disabled,
        agents: opts.agents ? opts.agents.split(',').map((a) => a.trim()) : null,
        command: opts.command,
        sshArgs: opts.sshArg,
      });
      const label = machineLabel(machine);
      const others = store.get().machines.filter((m) => m.destination !== destination);
      if (others.some((m) => machineLabel(m) === label)) throw new Error(`another machine already has the label ${label}; pick one with --label`);
      await saveMachines(store, [...others, machine]);
      process.stdout.write(`added ${destination} (sessions appear as ${label}/<agent>:<id>); check it with: baton remote test ${label}\n`);
    });
  remote
    .command('remove <name>')
    .description('Remove a machine (its sessions already indexed stay, marked gone at the next sync).')
    .action(async (name: string) => {
      const { machineLabel } = await import('../../../shared/machines.js');
      const store = await openSettings();
      const machines = [...store.get().machines];
      const [removed] = machines.splice(findMachine(machines, name, machineLabel), 1);
      await saveMachines(store, machines);
      process.stdout.write(`removed ${removed!.destination}\n`);
    });
  remote
    .command('list')
    .description('List the machines Baton reads.')
    .action(async () => {
      const { machineLabel } = await import('../../../shared/machines.js');
      const machines = (await openSettings()).get().machines;
      if (machines.length === 0) process.stdout.write('no machines; add one with: baton remote add <ssh alias or user@host>\n');
      for (const m of machines) {
        process.stdout.write(`${machineLabel(m)}\t${m.destination}\t${m.enabled ? 'enabled' : 'disabled'}\t${m.agents?.join(',') ?? 'all agents'}\t${m.command}\n`);
      }
    });
  remote
    .command('test <name>')
    .description('Connect to a machine: reachable, Baton found there and its version, agents and session counts.')
    .action(async (name: string) => {
      const { machineLabel } = await import('../../../shared/machines.js');
      const { testMachine } = await import('../../core/remote/machine-test.js');
      const machines = (await openSettings()).get().machines;
      const result = await testMachine(machines[findMachine(machines, name, machineLabel)]!);
      if (!result.ok) {
        process.stderr.write(`${result.error}\n`);
        process.exitCode = 1;
        return;
      }
      process.stdout.write(`${result.label}: reachable; Baton ${result.version} (${result.platform})\n`);
      for (const { agent, sessions } of result.agents) process.stdout.write(`  ${agent}: ${sessions} sessions\n`);
      for (const { agent, sessions } of result.unknownAgents) process.stdout.write(`  ${agent}: ${sessions} sessions (not read here: this Baton does not know ${agent} yet; update it)\n`);
    });
}
