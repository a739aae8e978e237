/** What gets registered in an agent's config: Baton's MCP URL and the bearer token that guards it. */
export interface McpEndpoint {
  /** Server name inside the agent's config (`baton`). */
  name: string;
  /** `http://127.0.0.1:<port>/mcp` */
  url: string;
  token: string;
  /**
   * Baton's token file (mode 0600). Agents that can read a secret from a file at start-up
   * (OpenCode's `{file:…}`) are pointed at it instead of receiving the token itself.
   */
  tokenFile?: string;
}

export const DEFAULT_SERVER_NAME = 'baton';

export function mcpEndpoint(port: number, token: string, name = DEFAULT_SERVER_NAME, tokenFile?: string): McpEndpoint {
  return { name, url: `http://127.0.0.1:${port}/mcp`, token, ...(tokenFile ? { tokenFile } : {}) };
}

export function bearer(endpoint: McpEndpoint): string {
  return `Bearer ${endpoint.token}`;
}
