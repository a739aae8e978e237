/**
 * Text-preserving edits of JSON/JSONC agent configs (Claude Code's `.claude.json`, OpenCode's
 * `opencode.json(c)`): jsonc-parser's `modify` + `applyEdits` touch only the bytes of our entry,
 * so comments, key order and the user's formatting survive.
 */
import {
  applyEdits,
  findNodeAtLocation,
  format,
  modify,
  parse,
  parseTree,
  printParseErrorCode,
  type FormattingOptions,
  type ParseError,
} from 'jsonc-parser';
import { ConfigEditError } from './config-edit-error.js';
import { bearer, type McpEndpoint } from '../endpoint.js';

type JsonPath = (string | number)[];

export function parseJsonConfig(text: string, file: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0) {
    const first = errors[0]!;
    const line = text.slice(0, first.offset).split('\n').length;
    throw new ConfigEditError(`${file} is not valid JSON (${printParseErrorCode(first.error)} at line ${line}); fix it first — Baton leaves it untouched.`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ConfigEditError(`${file} does not hold a JSON object at the top level; Baton leaves it untouched.`);
  }
  return value as Record<string, unknown>;
}

/** Indentation and line endings as the file already uses them. */
export function detectFormatting(text: string): FormattingOptions {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const indented = text.split(/\r?\n/).find((line) => /^[ \t]+\S/.test(line));
  if (indented?.startsWith('\t')) return { insertSpaces: false, tabSize: 1, eol };
  const width = indented ? indented.length - indented.trimStart().length : 2;
  return { insertSpaces: true, tabSize: Math.min(Math.max(width, 1), 8), eol };
}

/**
 * Insert or replace one value. `modify` with formatting options would re-indent neighbouring
 * properties too, so the value goes in compact and only its own property is formatted afterwards.
 */
function setAt(text: string, path: JsonPath, value: unknown): string {
  const base = text.trim() === '' ? '{}\n' : text;
  const inserted = applyEdits(base, modify(base, path, value, {}));
  const node = findNodeAtLocation(parseTree(inserted)!, path)?.parent;
  if (!node?.parent?.children) return inserted;
  // Include the gap after the previous property (or the opening brace) so the new property gets its own line.
  const siblings = node.parent.children;
  const previous = siblings[siblings.indexOf(node) - 1];
  const start = previous ? previous.offset + previous.length : node.parent.offset + 1;
  const range = { offset: start, length: node.offset + node.length - start };
  return applyEdits(inserted, format(inserted, range, detectFormatting(base)));
}

function getAt(root: unknown, path: JsonPath): unknown {
  let node = root;
  for (const key of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string | number, unknown>)[key];
  }
  return node;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A JSON-family config: where our entry lives and what it looks like. */
export interface JsonFlavour {
  entryPath(root: Record<string, unknown>, name: string): JsonPath;
  entry(endpoint: McpEndpoint): Record<string, unknown>;
  /** Keys a brand-new file starts with. */
  skeleton?: Record<string, unknown>;
}

export const claudeFlavour: JsonFlavour = {
  // User scope: top-level `mcpServers` (reference §2.8).
  entryPath: (_root, name) => ['mcpServers', name],
  entry: (endpoint) => ({ type: 'http', url: endpoint.url, headers: { Authorization: bearer(endpoint) } }),
};

/** `Bearer {file:<token file>}`, or null when there is no file or its path cannot be written that way. */
export function opencodeFileRef(endpoint: McpEndpoint): string | null {
  if (!endpoint.tokenFile || /[}\n]/.test(endpoint.tokenFile)) return null;
  return `Bearer {file:${endpoint.tokenFile.replace(/\\/g, '/')}}`;
}

export const opencodeFlavour: JsonFlavour = {
  // OpenCode 1.x: `mcp.<name>`; OpenCode 2 nests servers under `mcp.servers` — follow the file's shape.
  entryPath: (root, name) => (isPlainObject(root.mcp) && isPlainObject(root.mcp.servers) ? ['mcp', 'servers', name] : ['mcp', name]),
  // OpenCode substitutes `{file:path}` in its config with the file's trimmed content at start-up, so
  // the config names Baton's token file instead of holding the token (forward slashes: the path
  // is matched in the raw JSON text, where a backslash would be doubled).
  entry: (endpoint) => ({
    type: 'remote',
    url: endpoint.url,
    headers: { Authorization: opencodeFileRef(endpoint) ?? bearer(endpoint) },
    enabled: true,
  }),
  skeleton: { $schema: 'https://opencode.ai/config.json' },
};

/** Kilo Code (an OpenCode fork) reads the same `mcp.<name>` entries from ~/.config/kilo/kilo.json. */
export const kiloFlavour: JsonFlavour = { entryPath: opencodeFlavour.entryPath, entry: opencodeFlavour.entry };

export const geminiFlavour: JsonFlavour = {
  // Gemini CLI and Qwen Code: `mcpServers.<name>` in settings.json; `httpUrl` selects streamable HTTP.
  entryPath: (_root, name) => ['mcpServers', name],
  entry: (endpoint) => ({ httpUrl: endpoint.url, headers: { Authorization: bearer(endpoint) } }),
};

export const copilotFlavour: JsonFlavour = {
  // GitHub Copilot CLI: `mcpServers.<name>` in ~/.copilot/mcp-config.json; `tools: ["*"]` offers every tool.
  entryPath: (_root, name) => ['mcpServers', name],
  entry: (endpoint) => ({ type: 'http', url: endpoint.url, headers: { Authorization: bearer(endpoint) }, tools: ['*'] }),
};

export const droidFlavour: JsonFlavour = {
  // Factory Droid: `mcpServers.<name>` in ~/.factory/mcp.json, as `droid mcp add --type http` writes it.
  entryPath: (_root, name) => ['mcpServers', name],
  entry: (endpoint) => ({ type: 'http', url: endpoint.url, headers: { Authorization: bearer(endpoint) } }),
};

export const clineFlavour: JsonFlavour = {
  // Cline CLI 3.0: `mcpServers.<name>` in cline_mcp_settings.json; a URL entry without `type` is
  // taken as SSE, so `streamableHttp` is spelled out (the type Cline's own `cline mcp add` writes).
  entryPath: (_root, name) => ['mcpServers', name],
  entry: (endpoint) => ({ type: 'streamableHttp', url: endpoint.url, headers: { Authorization: bearer(endpoint) } }),
};

export const qwenFlavour: JsonFlavour = {
  entryPath: geminiFlavour.entryPath,
  // Qwen Code (0.24) hides MCP tools behind its tool_search/tool_call bridge unless the server says
  // `alwaysLoadTools`: Baton's few handoff tools are offered to the model directly.
  entry: (endpoint) => ({ ...geminiFlavour.entry(endpoint), alwaysLoadTools: true }),
};

export function addJsonEntry(flavour: JsonFlavour, text: string, endpoint: McpEndpoint, file: string): string {
  let root = parseJsonConfig(text, file);
  let next = text;
  if (text.trim() === '' && flavour.skeleton) {
    for (const [key, value] of Object.entries(flavour.skeleton)) next = setAt(next, [key], value);
    root = parseJsonConfig(next, file);
  }
  const path = flavour.entryPath(root, endpoint.name);
  const parent = getAt(root, path.slice(0, -1));
  if (parent !== undefined && !isPlainObject(parent)) {
    throw new ConfigEditError(`${file}: "${path.slice(0, -1).join('.')}" is not an object; fix it first — Baton leaves the file untouched.`);
  }
  const wanted = flavour.entry(endpoint);
  if (JSON.stringify(getAt(root, path)) === JSON.stringify(wanted)) return text;
  return setAt(next, path, wanted);
}

export function removeJsonEntry(flavour: JsonFlavour, text: string, name: string, file: string): string {
  const root = parseJsonConfig(text, file);
  const path = flavour.entryPath(root, name);
  if (getAt(root, path) === undefined) return text;
  return applyEdits(text, modify(text, path, undefined, {}));
}

export function readJsonEntry(flavour: JsonFlavour, text: string, name: string, file: string): unknown {
  const root = parseJsonConfig(text, file);
  return getAt(root, flavour.entryPath(root, name));
}

/** The containers of Baton's entry (`mcpServers`; `mcp.servers`, `mcp`), deepest first. */
export function jsonEntryContainers(flavour: JsonFlavour, text: string, name: string, file: string): string[][] {
  const parents = flavour.entryPath(parseJsonConfig(text, file), name).slice(0, -1);
  return parents.map((_, i) => parents.slice(0, parents.length - i).map(String));
}

function isEmptyContainer(value: unknown): boolean {
  return value === null || (Array.isArray(value) ? value.length === 0 : isPlainObject(value) && Object.keys(value).length === 0);
}

/** Removes the property at `at` when it holds an empty object or list (or null); otherwise the text as it is. */
export function removeEmptyJson(text: string, at: string[], file: string): string {
  if (!isEmptyContainer(getAt(parseJsonConfig(text, file), at))) return text;
  return applyEdits(text, modify(text, at, undefined, {}));
}
