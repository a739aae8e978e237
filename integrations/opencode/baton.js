// Baton plugin for OpenCode: after each response (the session goes idle), tell Baton which session
// changed so its index re-reads OpenCode's store at once and agents see the latest turns.
// Installed by `baton mcp install --agent opencode --plugin` into ~/.config/opencode/plugins/.
// Baton fills in the constants below at install time; the environment can override them.
// The token is read from Baton's own token file (mode 0600) at each push, so this file holds no
// secret and a regenerated token needs no reinstall.
// Nothing leaves the machine: the only request goes to Baton on 127.0.0.1.
//
// OpenCode calls EVERY exported function of a plugin module as a plugin, so this module exports the
// plugin and nothing else; the helpers hang off it (`BatonPlugin.helpers`) for Baton's tests.
// It imports nothing but Node built-ins, so it needs no dependency install.

import { readFileSync } from 'node:fs';

const BATON_INGEST_URL = process.env.BATON_INGEST_URL || '__BATON_INGEST_URL__';
const BATON_TOKEN_FILE = process.env.BATON_TOKEN_FILE || '__BATON_TOKEN_FILE__';
const TIMEOUT_MS = 5000;
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
    agent: 'opencode',
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

export const BatonPlugin = async ({ client }) => {
  const timers = new Map();
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

BatonPlugin.helpers = { buildPayload, pushToBaton, readToken };
