/**
 * Baton's MCP entry in Letta Code's `~/.letta/settings.json`. Letta keeps client-side MCP servers
 * per agent, not per user: `agents[i].mcpServers` is a list of `{name, transport, url, headers}`
 * (what `/mcp add --transport http …` writes, letta.js 0.32.18 `handleMcpAdd`), and the model reaches
 * them through `letta mcp call`. So Baton's entry goes into every agent the file lists, and is
 * "current" only while every agent has it (an agent made later has to be installed again).
 * Edits are jsonc-parser edits of the entries alone, so the rest of the file keeps its bytes.
 */
import { applyEdits, modify, type JSONPath } from 'jsonc-parser';
import { ConfigEditError } from './config-edit-error.js';
import { detectFormatting, parseJsonConfig } from './edit-json.js';
import { bearer, type McpEndpoint } from '../endpoint.js';

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The agent entries, refusing a file whose `agents` or an agent's `mcpServers` Letta could not have written. */
function agentsOf(text: string, file: string): Record<string, unknown>[] {
  const root = parseJsonConfig(text, file);
  if (root.agents === undefined) return [];
  if (!Array.isArray(root.agents)) throw new ConfigEditError(`${file}: "agents" is not a list; fix it first — Baton leaves the file untouched.`);
  return root.agents.map((agent: unknown, i) => {
    if (!isObject(agent)) throw new ConfigEditError(`${file}: agents[${i}] is not an object; Baton leaves the file untouched.`);
    if (agent.mcpServers !== undefined && !Array.isArray(agent.mcpServers)) {
      throw new ConfigEditError(`${file}: agents[${i}].mcpServers is not a list; fix it first — Baton leaves the file untouched.`);
    }
    return agent;
  });
}

function serversOf(agent: Record<string, unknown>): unknown[] {
  return Array.isArray(agent.mcpServers) ? agent.mcpServers : [];
}

function indexOfServer(servers: unknown[], name: string): number {
  return servers.findIndex((s) => isObject(s) && s.name === name);
}

export function lettaEntry(endpoint: McpEndpoint): Record<string, unknown> {
  // An Authorization header also keeps Letta from starting its OAuth flow for the server.
  return { name: endpoint.name, transport: 'http', url: endpoint.url, headers: { Authorization: bearer(endpoint) } };
}

/** How many agents the file lists (Baton's entry has nowhere to go without one). */
export function lettaAgentCount(text: string, file: string): number {
  return agentsOf(text, file).length;
}

function edit(text: string, path: JSONPath, value: unknown, arrayInsert = false): string {
  return applyEdits(text, modify(text, path, value, { formattingOptions: detectFormatting(text), ...(arrayInsert ? { isArrayInsertion: true } : {}) }));
}

export function addLettaEntry(text: string, endpoint: McpEndpoint, file: string): string {
  const agents = agentsOf(text, file);
  if (agents.length === 0) throw new ConfigEditError(`${file} lists no Letta Code agent yet, and Letta keeps MCP servers per agent: start \`letta\` once, then install again. Nothing changed.`);
  const wanted = lettaEntry(endpoint);
  let next = text;
  agents.forEach((agent, i) => {
    const servers = serversOf(agent);
    const at = indexOfServer(servers, endpoint.name);
    if (at >= 0 && JSON.stringify(servers[at]) === JSON.stringify(wanted)) return;
    if (at >= 0) next = edit(next, ['agents', i, 'mcpServers', at], wanted);
    else if (agent.mcpServers === undefined) next = edit(next, ['agents', i, 'mcpServers'], [wanted]);
    else next = edit(next, ['agents', i, 'mcpServers', servers.length], wanted, true);
  });
  return next;
}

export function removeLettaEntry(text: string, name: string, file: string): string {
  let next = text;
  agentsOf(text, file).forEach((agent, i) => {
    const servers = serversOf(agent);
    const at = indexOfServer(servers, name);
    if (at < 0) return;
    // Letta drops an empty `mcpServers` itself (stripEmptyAgentSettings): so does Baton.
    next = servers.length === 1 ? edit(next, ['agents', i, 'mcpServers'], undefined) : edit(next, ['agents', i, 'mcpServers', at], undefined);
  });
  return next;
}

/** Baton's entry as the first agent that has it holds it; undefined when none does. */
export function readLettaEntry(text: string, name: string, file: string): unknown {
  for (const agent of agentsOf(text, file)) {
    const servers = serversOf(agent);
    const at = indexOfServer(servers, name);
    if (at >= 0) return servers[at];
  }
  return undefined;
}
