// Baton plugin for Cline: when a Cline session starts its first run, add the brief of a handoff
// pending for its workspace to what the model sees (`baton hook session-start --agent cline`
// prints it, or nothing). Cline 3.0 runs the files of its hooks folder detached and drops their
// output at run start, so a plugin is the way in: Cline awaits a plugin's `beforeRun` hook and
// adds its `appendContext` to the run's first model request.
// Installed by `baton mcp install --agent cline --plugin` into ~/.cline/plugins/.
// Baton fills in the constants below at install time; the environment can override them.
// Nothing leaves the machine: the only thing started is the local Baton's hook command, which
// reads Baton's own database.
// It imports nothing but Node built-ins, so it needs no dependency install.

import { spawn } from 'node:child_process';

// [node, bin/baton.mjs] of the Baton that installed this plugin (JSON).
const BATON_HOOK = process.env.BATON_HOOK_COMMAND || '__BATON_HOOK__';
// Baton's data dir, when it is not where the hook would look by default ('' otherwise).
const BATON_DATA_DIR = process.env.BATON_HOME || '__BATON_DATA_DIR__';
const HOOK_TIMEOUT_MS = 10000;

function hookCommand(text = BATON_HOOK) {
  try {
    const command = JSON.parse(text);
    return Array.isArray(command) && command.length > 0 && command.every((part) => typeof part === 'string') ? command : null;
  } catch {
    return null;
  }
}

/** The brief of a handoff pending for this workspace (claimed for this session), or '' when none. */
function sessionStartBrief(sessionId, cwd, { command = hookCommand(), dataDir = BATON_DATA_DIR } = {}) {
  return new Promise((resolve) => {
    let out = '';
    let child;
    if (!command || !sessionId || !cwd) {
      resolve('');
      return;
    }
    try {
      child = spawn(command[0], [...command.slice(1), 'hook', 'session-start', '--agent', 'cline', '--session-id', sessionId, '--cwd', cwd], {
        env: dataDir ? { ...process.env, BATON_HOME: dataDir } : process.env,
        stdio: ['pipe', 'pipe', 'ignore'],
      });
    } catch {
      resolve('');
      return;
    }
    const timer = setTimeout(() => child.kill(), HOOK_TIMEOUT_MS);
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('error', () => resolve(''));
    child.on('close', () => {
      clearTimeout(timer);
      resolve(out.trim());
    });
    child.stdin.end(JSON.stringify({ session_id: sessionId, cwd, is_first_turn: true }));
  });
}

/** A run that starts a session: the lead agent (not a subagent) with no answer in its history yet. */
function isSessionStart(snapshot) {
  if (!snapshot || snapshot.parentAgentId) return false;
  const messages = Array.isArray(snapshot.messages) ? snapshot.messages : [];
  return !messages.some((m) => m && m.role === 'assistant');
}

// What Cline loaded this plugin for: its root session and workspace (set in `setup`).
let session = { sessionId: '', cwd: '' };
let asked = false;

export default {
  name: 'baton',
  manifest: { capabilities: ['hooks'] },
  setup(_api, ctx) {
    session = { sessionId: (ctx && ctx.session && ctx.session.sessionId) || '', cwd: (ctx && ctx.workspaceInfo && ctx.workspaceInfo.rootPath) || process.cwd() };
    asked = false;
  },
  hooks: {
    async beforeRun(context) {
      // Once per session: later runs (the next prompts) and resumed sessions get nothing.
      if (asked || !isSessionStart(context && context.snapshot)) return undefined;
      asked = true;
      try {
        const brief = await sessionStartBrief(session.sessionId, session.cwd);
        return brief ? { appendContext: brief } : undefined;
      } catch {
        // Baton must never break a Cline run.
        return undefined;
      }
    },
  },
  // For Baton's tests: the pieces above, without a Cline around them.
  helpers: { hookCommand, sessionStartBrief, isSessionStart },
};
