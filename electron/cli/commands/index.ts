/** Every CLI command, in the order `baton --help` lists them. Add a command: one file + one line here. */
import type { Command } from 'commander';
import { registerServe } from './serve.js';
import { registerToken } from './token.js';
import { registerLoginLink } from './login-link.js';
import { registerMcp } from './mcp.js';
import { registerList } from './list.js';
import { registerSearch } from './search.js';
import { registerIndex } from './index-cmd.js';
import { registerDoctor } from './doctor.js';
import { registerBrief } from './brief.js';
import { registerCheckpoint } from './checkpoint.js';
import { registerRestore } from './restore.js';
import { registerUsage } from './usage.js';
import { registerHandoff } from './handoff.js';
import { registerContinue } from './continue.js';
import { registerHooks } from './hooks.js';
import { registerHook } from './hook.js';
import { registerRemote } from './remote.js';

export function registerCommands(program: Command): void {
  registerServe(program);
  registerToken(program);
  registerLoginLink(program);
  registerMcp(program);
  registerList(program);
  registerSearch(program);
  registerIndex(program);
  registerDoctor(program);
  registerBrief(program);
  registerCheckpoint(program);
  registerRestore(program);
  registerUsage(program);
  registerHandoff(program);
  registerContinue(program);
  registerHooks(program);
  registerHook(program);
  registerRemote(program);
}
