/**
 * A file that is wholly Baton's (the pi extension, the OpenCode plugin), installed and removed
 * through the same path as every config (config-change.ts): a symlinked file is written where the
 * link points, its owner and mode stay, a read-only one is refused with the reason, a file that
 * is not Baton's is never replaced or removed, and uninstall gives back what was there before —
 * nothing when Baton created the file, and no folder Baton created for it.
 */
import { batonDataDir, type Environment } from '../../paths.js';
import { changeConfig, type ConfigChangeOutcome } from '../config/config-change.js';
import { ConfigEditError } from '../config/config-edit-error.js';
import { InstallRecords } from '../config/install-record.js';

/** Baton's record of the agent files `baton mcp install` changed (see install-record.ts). */
export const MCP_RECORD_FILE = 'mcp-installed.json';

export function mcpRecords(environment: Environment, dataDir?: string): InstallRecords {
  return new InstallRecords(dataDir ?? batonDataDir(environment), MCP_RECORD_FILE);
}

export interface BatonFileRequest {
  file: string;
  action: 'install' | 'uninstall';
  /** The content Baton writes (install). */
  content: string;
  /** Whether a file's text is Baton's (its marker). */
  isBatons(text: string): boolean;
  /** What the file is, for the reasons Baton gives ("Baton's pi extension"). */
  what: string;
  /** Distinguishes this file's record from the other entries'. */
  entry: string;
  environment: Environment;
  dataDir?: string;
  dryRun?: boolean;
  now?: () => Date;
}

export function changeBatonFile(request: BatonFileRequest): ConfigChangeOutcome {
  const { file, what, isBatons } = request;
  return changeConfig({
    file,
    action: request.action,
    wholeFile: true,
    editor: {
      add: (text) => {
        if (text !== '' && !isBatons(text)) throw new ConfigEditError(`${file} exists and is not ${what}; left in place. Move it away and run the install again.`);
        return request.content;
      },
      remove: (text) => {
        if (!isBatons(text)) throw new ConfigEditError(`${file} is not ${what}; left in place.`);
        return '';
      },
      has: isBatons,
    },
    records: mcpRecords(request.environment, request.dataDir),
    entry: request.entry,
    dryRun: request.dryRun,
    now: request.now,
  });
}
