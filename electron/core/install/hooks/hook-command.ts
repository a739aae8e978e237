/**
 * The command line an agent's config runs for a Baton hook: the absolute Node binary and the
 * absolute `bin/baton.mjs`, never `npx` (an npm round trip costs ~165 ms per hook, and offline it
 * retries for a minute). Baton recognises its own entries by the `baton.mjs' hook <event>` tail,
 * wherever Baton was installed from, so a moved checkout replaces its old entries.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { AgentId } from '../../../../shared/model.js';
import { packageRoot } from '../../asset-path.js';
import type { HookEvent } from './hook-events.js';
import { batonDataDir, type Environment } from '../../paths.js';
import { quotePosix } from '../../terminal/shell-quote.js';

export interface HookRuntime {
  node: string;
  /** Arguments before the script (`ELECTRON_RUN_AS_NODE=1 <app>` when only Electron can run it). */
  nodeArgs?: string[];
  script: string;
  /** Baton's data dir, when it is not where a hook would look by default (BATON_HOME was set). */
  dataDir?: string;
}

/** This Baton: the Node running it and the `bin/baton.mjs` next to these sources (or dist/). */
export function currentHookRuntime(): HookRuntime {
  let root = packageRoot();
  // A packaged app: the hook's files are unpacked next to the asar archive, where any Node reads them.
  if (root.endsWith('app.asar') && fs.existsSync(`${root}.unpacked`)) root = `${root}.unpacked`;
  return { ...nodeBinary(root), script: path.join(root, 'bin', 'baton.mjs') };
}

/**
 * A plain Node for the hook. In the CLI it is the Node running Baton; inside the Electron app
 * process.execPath is Electron itself, which would start the app: use the project's Node 22 (the
 * `node` devDependency), else the first `node` on PATH.
 */
function nodeBinary(root: string): Pick<HookRuntime, 'node' | 'nodeArgs'> {
  if (!process.versions.electron) return { node: process.execPath };
  const local = path.join(root, 'node_modules', 'node', 'bin', 'node');
  if (fs.existsSync(local)) return { node: local };
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, process.platform === 'win32' ? 'node.exe' : 'node');
    if (dir && fs.existsSync(candidate)) return { node: candidate };
  }
  // No Node on this machine: the app's own Electron, run as plain Node (env works for shells and argv alike).
  return { node: '/usr/bin/env', nodeArgs: ['ELECTRON_RUN_AS_NODE=1', process.execPath] };
}

export function hookCommand(runtime: HookRuntime, event: HookEvent, agent: AgentId): string {
  const dataDir = runtime.dataDir ? ` --data-dir ${quotePosix(runtime.dataDir)}` : '';
  const head = [runtime.node, ...(runtime.nodeArgs ?? []), runtime.script].map(quotePosix).join(' ');
  return `${head} hook ${event} --agent ${agent}${dataDir}`;
}

/**
 * The runtime for hooks of the Baton whose data lives in `dataDir`: the agents start hooks without
 * Baton's environment, so a data dir chosen with BATON_HOME is written into the command.
 */
export function hookRuntimeFor(environment: Environment, dataDir: string): HookRuntime {
  const runtime = currentHookRuntime();
  const { BATON_HOME: _ignored, ...env } = environment.env;
  return path.resolve(dataDir) === path.resolve(batonDataDir({ ...environment, env })) ? runtime : { ...runtime, dataDir };
}

const OURS = /baton\.mjs'?"?\s+hook\s+(session-start|pre-compact|stop)\s+--agent\s/;

export function isBatonHookCommand(command: unknown): boolean {
  return typeof command === 'string' && OURS.test(command);
}
