/**
 * `baton auto on <folder> --to <agent>[,<agent>…] [--when limit,context]`, `baton auto off <folder>`,
 * `baton auto status [--json]`: unattended continuation per folder, stored in baton.db. A running
 * Baton (app or `baton serve`) reads the folders at each check, so nothing needs restarting; with no
 * Baton running nothing is carried on, and `status` says so.
 */
import type { Command } from 'commander';
import { AGENT_LABELS } from '../../../shared/model.js';
import type { AutoStatus } from '../../../shared/auto-continue.js';
import type { AutoSwitch } from '../../core/auto/auto-api.js';

interface OnOptions {
  to: string;
  when?: string;
  json?: boolean;
}

const list = (value: string): string[] => value.split(',').map((s) => s.trim()).filter(Boolean);

interface AutoCli {
  status(limit: number): Promise<AutoStatus>;
  set(input: AutoSwitch): Promise<AutoStatus>;
}

/** baton.db opened (and migrated) directly: no index is needed, so this answers at once. */
async function withAuto<T>(work: (api: AutoCli, running: boolean) => Promise<T>): Promise<T> {
  const { batonDataDir, currentEnvironment } = await import('../../core/paths.js');
  const { openUserData } = await import('../../core/userdata/user-data.js');
  const { autoStatus, setAutoContinue } = await import('../../core/auto/auto-api.js');
  const { readServerFile } = await import('../../core/server/server-file.js');
  const { redacting } = await import('../cli-redaction.js');
  const dataDir = batonDataDir(currentEnvironment());
  const data = openUserData(dataDir);
  try {
    const api = redacting<AutoCli>({ status: async (limit) => autoStatus(data.auto, limit), set: async (input) => setAutoContinue(data.auto, input) }, false);
    return await work(api, readServerFile(dataDir) !== null);
  } finally {
    data.close();
  }
}

function printStatus(status: AutoStatus, running: boolean): void {
  const out: string[] = [];
  if (status.rules.length === 0) out.push('Unattended continuation is off in every folder (turn it on with `baton auto on <folder> --to <agent>`).');
  else {
    out.push('Unattended continuation is on in:');
    for (const r of status.rules) out.push(`  ${r.folder}  → ${r.targets.map((a) => AGENT_LABELS[a]).join(', then ')}  when: ${r.when.join(', ')}  (since ${r.createdAt})`);
    if (!running) out.push('No Baton is running (app or `baton serve`): nothing is carried on until one runs.');
  }
  if (status.runs.length > 0) {
    out.push('', 'What Baton did, newest first:');
    for (const run of status.runs) out.push(`  ${run.createdAt}  ${run.message}${run.checkpointId ? `  [handoff ${run.checkpointId}]` : ''}`);
  }
  process.stdout.write(`${out.join('\n')}\n`);
}

export function registerAuto(program: Command): void {
  const auto = program.command('auto').description('Unattended continuation: when a session in a folder hits its limit, Baton opens the next agent there.');
  auto
    .command('on')
    .description('Switch a folder on: a session there (or below, or in its git work tree) that hits its limit while Baton runs is carried on.')
    .argument('<folder>', 'the project folder')
    .requiredOption('--to <agents>', 'the agents that carry on, in order: the first with room is opened (codex,gemini)')
    .option('--when <triggers>', 'limit, context, or both (limit,context); default limit')
    .option('--json', 'print the status as JSON')
    .action(async (folder: string, opts: OnOptions) => {
      await withAuto(async (api, running) => {
        const { parseApiInput } = await import('../../../shared/contract.js');
        const input = parseApiInput('setAutoContinue', { folder, on: true, targets: list(opts.to), when: opts.when === undefined ? undefined : list(opts.when) });
        const status = await api.set(input);
        if (opts.json) process.stdout.write(`${JSON.stringify(status, null, 2)}\n`);
        else printStatus(status, running);
      });
    });
  auto
    .command('off')
    .description('Switch a folder off.')
    .argument('<folder>', 'the project folder')
    .option('--json', 'print the status as JSON')
    .action(async (folder: string, opts: { json?: boolean }) => {
      await withAuto(async (api, running) => {
        const status = await api.set({ folder, on: false });
        if (opts.json) process.stdout.write(`${JSON.stringify(status, null, 2)}\n`);
        else printStatus(status, running);
      });
    });
  auto
    .command('status')
    .description('The folders switched on and what Baton did there.')
    .option('--json', 'print as JSON')
    .option('--limit <n>', 'how many runs to list', '20')
    .action(async (opts: { json?: boolean; limit: string }) => {
      const limit = Number.parseInt(opts.limit, 10);
      if (!Number.isInteger(limit) || limit < 1 || limit > 200) throw new Error(`--limit must be between 1 and 200 (got "${opts.limit}")`);
      await withAuto(async (api, running) => {
        const status = await api.status(limit);
        if (opts.json) process.stdout.write(`${JSON.stringify({ ...status, batonRunning: running }, null, 2)}\n`);
        else printStatus(status, running);
      });
    });
}
