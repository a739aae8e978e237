// Baton plugin for OpenCode (and for Kilo Code, an OpenCode fork that loads the same plugins): after
// each response (the session goes idle), tell Baton which session changed so its index re-reads the
// agent's store at once and agents see the latest turns; and when a new session starts, add the brief
// of a handoff pending for its folder to its first message (`baton hook session-start --agent opencode`
// prints it, or nothing).
// Installed by `baton mcp install --agent opencode --plugin` into ~/.config/opencode/plugins/ (Kilo Code:
// `--agent kilo`, ~/.config/kilo/plugins/).
// Baton fills in the constants below at install time; the environment can override them.
// The token is read from Baton's own token file (mode 0600) at each push, so this file holds no
// secret and a regenerated token needs no reinstall.
// Nothing leaves the machine: the only request goes to Baton on 127.0.0.1.
//
// OpenCode calls EVERY exported function of a plugin module as a plugin, so this module exports the
// plugin and nothing else; the helpers hang off it (`BatonPlugin.helpers`) for Baton's tests.
// It imports nothing but Node built-ins, so it needs no dependency install.

import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';

// Which agent Baton reads this session from ('opencode' or 'kilo').
const BATON_AGENT = '__BATON_AGENT__';
const BATON_INGEST_URL = process.env.BATON_INGEST_URL || '__BATON_INGEST_URL__';
const BATON_TOKEN_FILE = process.env.BATON_TOKEN_FILE || '__BATON_TOKEN_FILE__';
// [node, bin/baton.mjs] of the Baton that installed this plugin (JSON).
const BATON_HOOK = process.env.BATON_HOOK_COMMAND || '__BATON_HOOK__';
const TIMEOUT_MS = 5000;
const HOOK_TIMEOUT_MS = 10000;
const DEBOUNCE_MS = 400;
const MAX_MESSAGES = 200;

function unwrap(response) {
  // The OpenCode SDK returns `{ data }` (newer) or the value itself (older).
  return response && typeof response === 'object' && 'data' in response ? response.data : response;
}

function timeOf(value) {
  return typeof value === 'number' || typeof value === 'string' ? value : null;
}

function readToken(file = BATON_TOKEN_FILE) {
  if (process.env.BATON_TOKEN) return process.env.BATON_TOKEN;
  return readFileSync(file, 'utf8').trim();
}

async function buildPayload(client, sessionID) {
  const session = unwrap(await client.session.get({ path: { id: sessionID } }));
  const entries = unwrap(await client.session.messages({ path: { id: sessionID } })) || [];
  const messages = entries.slice(-MAX_MESSAGES).map((entry) => {
    const info = entry.info || entry;
    return {
      id: String(info.id),
      role: String(info.role || 'unknown'),
      created_at: timeOf(info.time && info.time.created),
      completed_at: timeOf(info.time && info.time.completed),
    };
  });
  return {
    agent: BATON_AGENT,
    session_id: sessionID,
    title: session && typeof session.title === 'string' ? session.title : null,
    directory: session && typeof session.directory === 'string' ? session.directory : null,
    updated_at: session && session.time ? timeOf(session.time.updated) : null,
    messages,
  };
}

async function pushToBaton(payload, { url = BATON_INGEST_URL, token, fetchImpl = fetch } = {}) {
  const response = await fetchImpl(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token ?? readToken()}` },
    body: JSON.stringify(payload),
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  return response.status;
}

function hookCommand(text = BATON_HOOK) {
  try {
    const command = JSON.parse(text);
    return Array.isArray(command) && command.length > 0 && command.every((part) => typeof part === 'string') ? command : null;
  } catch {
    return null;
  }
}

/** The brief of a handoff pending for this folder (claimed for this session), or '' when none. */
function sessionStartBrief(sessionID, directory, { command = hookCommand(), dataDir = dirname(BATON_TOKEN_FILE) } = {}) {
  return new Promise((resolve) => {
    let out = '';
    let child;
    if (!command) {
      resolve('');
      return;
    }
    try {
      child = spawn(command[0], [...command.slice(1), 'hook', 'session-start', '--agent', BATON_AGENT, '--session-id', sessionID, '--cwd', directory], {
        env: { ...process.env, BATON_HOME: process.env.BATON_HOME || dataDir },
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
    child.stdin.end(JSON.stringify({ sessionID, directory }));
  });
}

// OpenCode's part ids: "prt_", 12 hex digits of time, 14 random base62 characters.
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
function partId() {
  let random = '';
  for (let i = 0; i < 14; i++) random += BASE62[Math.floor(Math.random() * 62)];
  return `prt_${(Date.now() * 0x1000).toString(16).padStart(12, '0').slice(-12)}${random}`;
}

export const BatonPlugin = async ({ client, directory }) => {
  const timers = new Map();
  const started = new Set();
  const inFlight = new Set();
  const push = (sessionID) => {
    const pushed = (async () => {
      try {
        await pushToBaton(await buildPayload(client, sessionID));
      } catch {
        // Baton may not be running; OpenCode must never notice. The index catches up from the store anyway.
      }
    })();
    inFlight.add(pushed);
    void pushed.finally(() => inFlight.delete(pushed));
    return pushed;
  };
  return {
    // The first user message of a session (before OpenCode saves it): a pending handoff's brief
    // joins it as a synthetic part, so the model sees it in the session's first request and the
    // session keeps it. Sessions that already have messages (resumed ones) are left alone.
    'chat.message': async (input, output) => {
      const sessionID = input && input.sessionID;
      if (typeof sessionID !== 'string' || started.has(sessionID) || !output || !Array.isArray(output.parts)) return;
      started.add(sessionID);
      try {
        const earlier = unwrap(await client.session.messages({ path: { id: sessionID } })) || [];
        if (earlier.length > 0) return;
        const session = unwrap(await client.session.get({ path: { id: sessionID } }));
        const brief = await sessionStartBrief(sessionID, (session && session.directory) || directory || process.cwd());
        if (!brief) return;
        const messageID = (output.message && output.message.id) || (input && input.messageID);
        output.parts.push({ id: partId(), sessionID, messageID, type: 'text', text: brief, synthetic: true });
      } catch {
        // No brief is better than a session that cannot start.
      }
    },
    event: async ({ event }) => {
      if (!event || event.type !== 'session.idle') return;
      const sessionID = event.properties && event.properties.sessionID;
      if (typeof sessionID !== 'string' || sessionID === '') return;
      clearTimeout(timers.get(sessionID));
      timers.set(
        sessionID,
        setTimeout(() => {
          timers.delete(sessionID);
          void push(sessionID);
        }, DEBOUNCE_MS),
      );
    },
    // OpenCode awaits this when the instance shuts down (`opencode run` does right after the last
    // idle): send what is still waiting for its debounce, and let pushes under way finish.
    dispose: async () => {
      for (const [sessionID, timer] of timers) {
        clearTimeout(timer);
        void push(sessionID);
      }
      timers.clear();
      await Promise.all([...inFlight]);
    },
  };
};

BatonPlugin.helpers = { buildPayload, pushToBaton, readToken, sessionStartBrief };
