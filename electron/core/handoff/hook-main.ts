/**
 * `baton hook <event> --agent <a>`: what an agent's hook runs. It must never break or slow the
 * agent: every failure exits 0 with nothing printed and its reason appended to baton.log, it reads
 * and writes baton.db directly (Baton need not be running), and it is bundled on its own
 * (bin/build-hook.mjs) so a start with nothing pending costs a Node start and one indexed query.
 *
 * Events: `session-start` (inject a pending handoff), `pre-compact` (automatic checkpoint from the
 * transcript's end), `stop` (nudge a running Baton's index).
 */
import fs from 'node:fs';
import path from 'node:path';
import { AGENTS, type AgentId } from '../../../shared/model.js';
import { batonDataDir, currentEnvironment } from '../paths.js';
import { claimPendingHandoff } from './claim-handoff.js';
import { openHandoffStore } from './handoff-store.js';
import { parseHookInput, type HookInput } from './hook-input.js';
import { sessionStartOutput } from './hook-output.js';
import { nudgeRunningBaton } from './nudge.js';
import { savePreCompactCheckpoint } from './precompact-checkpoint.js';

// The event names live with the hooks installer that writes them into the agents' configs.
import { HOOK_EVENTS, type HookEvent } from '../install/hooks/hook-events.js';

export interface HookIo {
  stdin(): Promise<string>;
  stdout(text: string): void;
  env: NodeJS.ProcessEnv;
  cwd: string;
  now?: () => Date;
}

interface HookArgs {
  event: HookEvent;
  agent: AgentId;
  sessionId?: string;
  cwd?: string;
  dataDir?: string;
}

class HookUsageError extends Error {}

function parseArgs(argv: string[]): HookArgs {
  const [event, ...rest] = argv;
  if (!(HOOK_EVENTS as readonly string[]).includes(event ?? '')) throw new HookUsageError(`unknown hook event "${event ?? ''}" (expected ${HOOK_EVENTS.join(', ')})`);
  const flags: Record<string, string> = {};
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    const eq = arg.indexOf('=');
    if (arg.startsWith('--') && eq > 0) flags[arg.slice(2, eq)] = arg.slice(eq + 1);
    else if (arg.startsWith('--')) flags[arg.slice(2)] = rest[++i] ?? '';
    else throw new HookUsageError(`unexpected argument "${arg}"`);
  }
  const agent = flags.agent;
  if (!agent || !(AGENTS as readonly string[]).includes(agent)) throw new HookUsageError(`--agent must be one of ${AGENTS.join(', ')} (got "${agent ?? ''}")`);
  return { event: event as HookEvent, agent: agent as AgentId, sessionId: flags['session-id'], cwd: flags.cwd, dataDir: flags['data-dir'] };
}

export function hookLog(dataDir: string, line: string, now = new Date()): void {
  try {
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    fs.appendFileSync(path.join(dataDir, 'baton.log'), `${now.toISOString()} [hook] ${line}\n`);
  } catch {
    // Logging must never break the agent either.
  }
}

/** Runs one hook invocation; always resolves 0 (the agent must never see a failing hook). */
export async function runHook(argv: string[], io: HookIo): Promise<number> {
  let dataDir = batonDataDir({ ...currentEnvironment(), env: io.env });
  const now = io.now ?? (() => new Date());
  let label = argv.slice(0, 3).join(' ');
  try {
    const args = parseArgs(argv);
    if (args.dataDir) dataDir = args.dataDir;
    label = `${args.agent} ${args.event}`;
    const input = parseHookInput(await io.stdin(), { sessionId: args.sessionId, cwd: args.cwd }, io.cwd);
    const out = await dispatch(args, input, dataDir, now);
    if (out) io.stdout(out);
  } catch (err) {
    hookLog(dataDir, `${label}: ${err instanceof Error ? err.message : String(err)}`, now());
  }
  return 0;
}

async function dispatch(args: HookArgs, input: HookInput, dataDir: string, now: () => Date): Promise<string | null> {
  switch (args.event) {
    case 'session-start': {
      if (!input.firstTurn) return null;
      if (!input.sessionId) throw new Error('no session id in the hook input (pass --session-id)');
      const store = openHandoffStore(dataDir);
      if (!store) return null;
      try {
        const claimed = claimPendingHandoff(store, { agent: args.agent, sessionId: input.sessionId, cwd: input.cwd, source: input.source }, now());
        if (!claimed) return null;
        hookLog(dataDir, `${args.agent}:${input.sessionId} ${claimed.reinjected ? 're-received' : 'received'} handoff ${claimed.handoffId} in ${input.cwd}`, now());
        return sessionStartOutput(args.agent, claimed.text);
      } finally {
        store.close();
      }
    }
    case 'pre-compact': {
      if (!input.sessionId || !input.transcriptPath) throw new Error('pre-compact needs session_id and transcript_path in the hook input');
      const store = openHandoffStore(dataDir);
      if (!store) return null;
      try {
        const cp = savePreCompactCheckpoint(store.userData(), { agent: args.agent, sessionId: input.sessionId, transcriptPath: input.transcriptPath, trigger: input.trigger }, now());
        if (cp) hookLog(dataDir, `${args.agent}:${input.sessionId} automatic checkpoint ${cp.id} before compaction`, now());
      } finally {
        store.close();
      }
      // Whatever a PreCompact hook prints goes to the summariser: print nothing.
      return null;
    }
    case 'stop': {
      const outcome = await nudgeRunningBaton(dataDir, args.agent);
      if (outcome === 'failed') hookLog(dataDir, `${args.agent} stop: could not nudge the running Baton`, now());
      return null;
    }
  }
}

/** stdin as the agent sends it; nothing when it is a terminal (a person running the command). */
export function readStdin(stream: NodeJS.ReadStream = process.stdin, limit = 8 * 1024 * 1024, timeoutMs = 5000): Promise<string> {
  if (stream.isTTY) return Promise.resolve('');
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const timer = setTimeout(() => {
      stream.pause();
      resolve(Buffer.concat(chunks).toString('utf8'));
    }, timeoutMs);
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        clearTimeout(timer);
        stream.pause();
        reject(new Error(`hook input larger than ${limit} bytes`));
      } else chunks.push(chunk);
    });
    stream.once('end', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
    stream.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });
}

/** The bundle's entry: bin/baton.mjs calls this for `baton hook …`. */
export async function main(argv: string[]): Promise<number> {
  return runHook(argv, {
    stdin: () => readStdin(),
    stdout: (text) => process.stdout.write(text),
    env: process.env,
    cwd: process.cwd(),
  });
}
