/** Every CLI command, in the order `baton --help` lists them. Add a command: one file + one line here. */
import type { Command } from 'commander';
import { registerServe } from './serve.js';
import { registerToken } from './token.js';
import { registerMcp } from './mcp.js';

export function registerCommands(program: Command): void {
  registerServe(program);
  registerToken(program);
  registerMcp(program);
}
