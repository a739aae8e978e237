/**
 * Files the session changed, each with the last action taken on it and the message (#seq) that
 * says so: the agent's file tools, the shell commands it ran (`sed -i`, `>`, `mv`, …), and the
 * changed files its own last `git status` / `git diff --stat` listed. Reads never count.
 */
import path from 'node:path';
import type { Message } from '../../../shared/model.js';
import { gitListing, gitListingFiles } from './git-status-files.js';
import { shellFileEffects } from './shell-file-effects.js';
import { fileEffects, parseToolInput, shellCommand, type FileAction } from './tool-input.js';

export interface FileTouch {
  /** Relative to the session cwd when inside it, else as the agent wrote it. */
  path: string;
  action: FileAction;
  /** The tool that changed it, or `git status` / `git diff` when the session's listing showed it. */
  tool: string;
  /** seq of the last call that touched it (or of the listing that showed it). */
  seq: number;
  times: number;
}

export function displayPath(p: string, cwd: string | null): string {
  const normalized = p.replace(/\\/g, '/');
  if (cwd) {
    const base = cwd.replace(/\\/g, '/').replace(/\/+$/, '');
    if (normalized.startsWith(base + '/')) return normalized.slice(base.length + 1);
  }
  return path.posix.normalize(normalized).replace(/^\.\//, '');
}

/** The directory a shell call ran in when its input names one (Codex `workdir`), else null. */
function callDir(text: string): string | null {
  if (!text.includes('workdir') && !text.includes('"cwd"')) return null;
  const input = parseToolInput(text);
  const dir = input?.workdir ?? input?.cwd;
  return typeof dir === 'string' && dir.startsWith('/') ? dir : null;
}

/** The output of a call: the result with its call id, else the first result after it. */
function resultOf(call: Message, results: Message[]): Message | null {
  if (call.toolCallId) {
    const byId = results.find((r) => r.toolCallId === call.toolCallId);
    if (byId) return byId;
  }
  let best: Message | null = null;
  for (const r of results) if (r.seq > call.seq && (!best || r.seq < best.seq)) best = r;
  return best;
}

/**
 * Most recently touched first. `results` are tool results the index holds (any order; the latest
 * ones suffice): the last git listing's output is read from them.
 */
export function collectFilesTouched(toolCalls: Message[], cwd: string | null, results: Message[] = []): FileTouch[] {
  const byPath = new Map<string, FileTouch>();
  let lastListing: { call: Message; command: string } | null = null;
  const touch = (p: string, action: FileAction, tool: string, seq: number) => {
    const shown = displayPath(p, cwd);
    const prev = byPath.get(shown);
    byPath.set(shown, { path: shown, action, tool, seq, times: (prev?.times ?? 0) + 1 });
  };
  for (const call of toolCalls) {
    const tool = call.toolName ?? 'tool';
    for (const effect of fileEffects(call.toolName, call.text)) touch(effect.path, effect.action, tool, call.seq);
    const command = shellCommand(call.toolName, call.text);
    if (!command || command.includes('*** Begin Patch')) continue; // patches were read above
    if (gitListing(command)) lastListing = { call, command };
    const dir = callDir(call.text);
    for (const effect of shellFileEffects(command)) touch(dir && !effect.path.startsWith('/') ? path.posix.join(dir, effect.path) : effect.path, effect.action, tool, call.seq);
  }
  if (lastListing) {
    const listing = gitListing(lastListing.command)!;
    const output = resultOf(lastListing.call, results);
    // `cd sub && git status` lists paths relative to sub.
    const sub = /^cd\s+(\S+)\s*&&/.exec(lastListing.command.trim())?.[1] ?? callDir(lastListing.call.text) ?? '';
    const label = listing.startsWith('status') ? 'git status' : 'git diff';
    if (output && !output.isError) {
      for (const f of gitListingFiles(listing, output.text)) {
        const full = sub && !f.path.startsWith('/') ? path.posix.join(sub, f.path) : f.path;
        // What a tool or command already shows keeps its entry: the listing only adds what they missed.
        if (!byPath.has(displayPath(full, cwd))) touch(full, f.action, label, output.seq);
      }
    }
  }
  return [...byPath.values()].sort((a, b) => b.seq - a.seq || a.path.localeCompare(b.path));
}
