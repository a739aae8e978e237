// Baton extension for pi: pi has no MCP client, so this offers Baton's MCP tools as pi tools
// (`baton__list_sessions`, `baton__checkpoint_session`, …), each call forwarded to Baton's MCP
// endpoint on 127.0.0.1. Installed by `baton mcp install --agent pi` into ~/.pi/agent/extensions/.
//
// The token is never stored here: it is read from Baton's own token file (mode 0600) at every
// call, so a regenerated token works at once. Baton fills in the constants below at install
// time; BATON_MCP_URL / BATON_TOKEN_FILE / BATON_HOOK_COMMAND in the environment override them.
// Nothing leaves the machine: the only requests go to Baton on 127.0.0.1.
//
// Zero-paste handoff: at the first prompt of a session, a handoff pending for its folder (claimed
// for this session by `baton hook session-start --agent pi`, which prints the brief or nothing) is
// added to that first request as a custom message, once.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';

const BATON_MCP_URL = process.env.BATON_MCP_URL || '__BATON_MCP_URL__';
const BATON_TOKEN_FILE = process.env.BATON_TOKEN_FILE || '__BATON_TOKEN_FILE__';
// [node, bin/baton.mjs] of the Baton that installed this extension (JSON).
const BATON_HOOK = process.env.BATON_HOOK_COMMAND || '__BATON_HOOK__';
const HOOK_TIMEOUT_MS = 10_000;
const TOOL_PREFIX = 'baton__';
const LIST_TIMEOUT_MS = 3000;
const CALL_TIMEOUT_MS = 60_000;

// The few parts of pi's ExtensionAPI this uses (pi 0.73 docs/extensions.md), declared here so the
// file needs nothing but pi itself at run time.
interface ToolText {
  type: 'text';
  text: string;
}
interface PiToolResult {
  content: ToolText[];
  details: Record<string, unknown>;
}
interface PiUi {
  notify(message: string, level?: 'info' | 'warning' | 'error' | 'success'): void;
}
interface PiSessionManager {
  getSessionId(): string;
  getEntries(): { type: string; message?: { role?: string } }[];
}
interface PiContext {
  ui: PiUi;
  hasUI?: boolean;
  cwd: string;
  sessionManager: PiSessionManager;
}
interface PiCustomMessage {
  customType: string;
  content: string;
  display: boolean;
}
interface PiExtensionApi {
  registerTool(tool: {
    name: string;
    label: string;
    description: string;
    promptSnippet?: string;
    parameters: Record<string, unknown>;
    execute(toolCallId: string, params: Record<string, unknown>, signal?: AbortSignal): Promise<PiToolResult>;
  }): void;
  registerCommand(name: string, command: { description: string; handler(args: string, ctx: PiContext): Promise<void> }): void;
  on(event: 'session_start', handler: (event: { reason?: string }, ctx: PiContext) => Promise<void>): void;
  on(event: 'before_agent_start', handler: (event: unknown, ctx: PiContext) => Promise<{ message: PiCustomMessage } | undefined>): void;
}

interface McpTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: Record<string, unknown>;
}

interface McpContent {
  type: string;
  text?: string;
}

function token(): string {
  try {
    return readFileSync(BATON_TOKEN_FILE, 'utf8').trim();
  } catch (err) {
    throw new Error(`Cannot read Baton's token file ${BATON_TOKEN_FILE} (${(err as Error).message}). Is Baton installed for this user?`, { cause: err });
  }
}

let nextId = 1;

/** One JSON-RPC request to Baton's stateless MCP endpoint (JSON or a one-event SSE reply). */
async function rpc(method: string, params: Record<string, unknown>, timeoutMs: number, signal?: AbortSignal): Promise<Record<string, unknown>> {
  const timeout = AbortSignal.timeout(timeoutMs);
  let response: Response;
  try {
    response = await fetch(BATON_MCP_URL, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${token()}`,
        'mcp-protocol-version': '2025-06-18',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
  } catch (err) {
    throw new Error(`Baton is not reachable at ${BATON_MCP_URL} (${(err as Error).message}). Start Baton (the tray app or \`baton serve\`).`, { cause: err });
  }
  const text = await response.text();
  if (response.status === 401 || response.status === 403) {
    throw new Error(`Baton refused the token from ${BATON_TOKEN_FILE} (HTTP ${response.status}). Run \`baton mcp install --agent pi\` again.`);
  }
  const json = text.trimStart().startsWith('{') ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? '');
  let body: { result?: Record<string, unknown>; error?: { message?: string } };
  try {
    body = JSON.parse(json) as typeof body;
  } catch {
    throw new Error(`Baton answered HTTP ${response.status} with something that is not JSON-RPC: ${text.slice(0, 200)}`);
  }
  if (body.error) throw new Error(`Baton: ${body.error.message ?? 'request failed'}`);
  return body.result ?? {};
}

function textOf(content: unknown): string {
  if (!Array.isArray(content)) return '';
  return (content as McpContent[])
    .map((c) => (c.type === 'text' && typeof c.text === 'string' ? c.text : `[${c.type}]`))
    .join('\n');
}

function hookCommand(): string[] | null {
  try {
    const command: unknown = JSON.parse(BATON_HOOK);
    return Array.isArray(command) && command.length > 0 && command.every((part) => typeof part === 'string') ? (command as string[]) : null;
  } catch {
    return null;
  }
}

/** The brief of a handoff pending for this folder, claimed for this session; '' when none or on any failure. */
function sessionStartBrief(sessionId: string, cwd: string, source: string): Promise<string> {
  const command = hookCommand();
  if (!command) return Promise.resolve('');
  return new Promise((resolve) => {
    let out = '';
    try {
      const child = spawn(command[0]!, [...command.slice(1), 'hook', 'session-start', '--agent', 'pi', '--session-id', sessionId, '--cwd', cwd], {
        env: { ...process.env, BATON_HOME: process.env.BATON_HOME || dirname(BATON_TOKEN_FILE) },
        stdio: ['pipe', 'pipe', 'ignore'],
      });
      const timer = setTimeout(() => child.kill(), HOOK_TIMEOUT_MS);
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
      child.on('error', () => resolve(''));
      child.on('close', () => {
        clearTimeout(timer);
        resolve(out.trim());
      });
      child.stdin.end(JSON.stringify({ session_id: sessionId, cwd, source }));
    } catch {
      resolve('');
    }
  });
}

/** True when the session has no prompt yet (a resumed or forked session already has its context). */
function isFresh(ctx: PiContext): boolean {
  return !ctx.sessionManager.getEntries().some((e) => e.type === 'message' && e.message?.role === 'user');
}

export default async function baton(pi: PiExtensionApi): Promise<void> {
  const registered = new Set<string>();
  let lastError: string | null = null;

  const connect = async (): Promise<void> => {
    try {
      const result = await rpc('tools/list', {}, LIST_TIMEOUT_MS);
      const tools = Array.isArray(result.tools) ? (result.tools as McpTool[]) : [];
      for (const tool of tools) {
        const name = `${TOOL_PREFIX}${tool.name}`;
        if (registered.has(name)) continue;
        registered.add(name);
        pi.registerTool({
          name,
          label: tool.title ?? `Baton: ${tool.name}`,
          description: tool.description ?? `Baton's ${tool.name} tool.`,
          promptSnippet: `${tool.title ?? tool.name} (Baton: sessions and handoffs of every coding agent on this machine)`,
          parameters: tool.inputSchema ?? { type: 'object', properties: {} },
          async execute(_toolCallId, params, signal) {
            const out = await rpc('tools/call', { name: tool.name, arguments: params ?? {} }, CALL_TIMEOUT_MS, signal);
            const text = textOf(out.content);
            // Throwing marks the result as an error for the model (pi's contract).
            if (out.isError === true) throw new Error(text || `Baton's ${tool.name} failed.`);
            return { content: [{ type: 'text', text }], details: { structured: out.structuredContent ?? null } };
          },
        });
      }
      lastError = null;
    } catch (err) {
      lastError = (err as Error).message;
    }
  };

  // Before the first session starts (pi awaits this factory), so the tools are in the first request.
  await connect();
  // Asked once per session, at its first prompt (so a session opened and left empty takes nothing).
  let handoffAsked = false;
  let startReason = 'startup';
  // Baton started after pi: try again before each prompt until the tools are there.
  pi.on('before_agent_start', async (_event, ctx) => {
    if (registered.size === 0) await connect();
    if (handoffAsked) return undefined;
    handoffAsked = true;
    if (!isFresh(ctx)) return undefined;
    const brief = await sessionStartBrief(ctx.sessionManager.getSessionId(), ctx.cwd, startReason);
    // Stored in the session and sent with this first request (pi's custom message).
    return brief ? { message: { customType: 'baton-handoff', content: brief, display: true } } : undefined;
  });
  pi.on('session_start', async (event, ctx) => {
    // pi rebinds extensions on /new, /resume and /fork: each session gets its own chance.
    handoffAsked = false;
    startReason = event.reason ?? 'startup';
    if (lastError && ctx.hasUI !== false) ctx.ui.notify(`Baton tools unavailable: ${lastError}`, 'warning');
  });
  pi.registerCommand('baton', {
    description: "Reconnect to Baton and show whether its tools are available",
    async handler(_args, ctx) {
      await connect();
      if (lastError) ctx.ui.notify(`Baton tools unavailable: ${lastError}`, 'error');
      else ctx.ui.notify(`Baton: ${registered.size} tools from ${BATON_MCP_URL}`, 'success');
    },
  });
}
