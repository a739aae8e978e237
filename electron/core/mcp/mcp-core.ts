/**
 * What the MCP tools and /ingest need from Baton's core: the contract's handlers (so the tools stay
 * a thin layer over the same calls the UI makes) plus "re-read this store now". The composition
 * root provides it (`mcpCoreFromBaton`); keeping it narrow keeps the tools honest about their inputs.
 */
import type { AgentId } from '../../../shared/model.js';
import type { ApiHandlers } from '../../../shared/contract.js';

export type McpApi = Pick<
  ApiHandlers,
  | 'health'
  | 'sourceStatus'
  | 'listSessions'
  | 'getSession'
  | 'search'
  | 'generateBrief'
  | 'createCheckpoint'
  | 'listCheckpoints'
  | 'restore'
  | 'completeHandoff'
  | 'handoffStatus'
  | 'usageSummary'
  | 'continueSession'
>;

export interface McpCore {
  api: McpApi;
  /**
   * Re-read an agent's native store now (the whole store, or only what changed) so the next call
   * sees the latest turns. Resolves when the index is current for that agent.
   */
  syncNow(agent: AgentId): Promise<void>;
  version: string;
  log?(line: string): void;
}
