/**
 * What `baton mcp status` says about the OpenCode plugin: whether it is installed, and whether an
 * offline OpenCode start would wait for its dependency install (see opencode-npmrc.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Environment } from '../../paths.js';
import { opencodeConfigDir, opencodePluginFile } from '../config/config-locations.js';
import { hasBatonNpmrc, opencodeNpmrcFile } from './opencode-npmrc.js';

export function opencodePluginStatus(environment: Pick<Environment, 'env' | 'home'>): string[] {
  const plugin = opencodePluginFile(environment);
  if (!fs.existsSync(plugin)) return ['plugin: not installed (`baton mcp install --agent opencode --plugin` pushes each turn to Baton at once)'];
  const notes = [`plugin: installed — ${plugin}`];
  const installed = fs.existsSync(path.join(opencodeConfigDir(environment), 'node_modules', '@opencode-ai', 'plugin', 'package.json'));
  if (!installed && !hasBatonNpmrc(environment)) {
    notes.push(
      `OpenCode installs @opencode-ai/plugin into ${opencodeConfigDir(environment)} at each start until that succeeds; ` +
        `offline, npm's retries delay every start by ~70 s. Re-run \`baton mcp install --agent opencode --plugin\` (adds fetch-retries=0 to ${opencodeNpmrcFile(environment)}).`,
    );
  }
  return notes;
}
