/**
 * Reads what a tool call did from the text the index stored for it. Adapters store the call's
 * input: a JSON object (Claude, OpenCode, Hermes, Codex function calls) or the raw freeform input
 * (Codex `apply_patch`), sometimes behind a name prefix. Parsing is tolerant: anything unexpected
 * yields "no file" / "no command", never an exception.
 */

export type FileAction = 'created' | 'written' | 'edited' | 'patched' | 'modified' | 'deleted' | 'moved';

export interface FileEffect {
  path: string;
  action: FileAction;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/** The call's input as an object when it is JSON (possibly after a prefix), else null. */
export function parseToolInput(text: string): JsonObject | null {
  const direct = tryParse(text.trim());
  if (direct) return direct;
  const brace = text.indexOf('{');
  if (brace > 0) return tryParse(text.slice(brace).trim());
  return null;
}

function tryParse(text: string): JsonObject | null {
  if (!text.startsWith('{')) return null;
  try {
    const value = JSON.parse(text) as Json;
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      // Some stores keep the arguments as a JSON string inside an object ({"arguments":"{…}"}).
      for (const key of ['arguments', 'input', 'args']) {
        const inner = value[key];
        if (typeof inner === 'string' && inner.trim().startsWith('{')) {
          const nested = tryParse(inner.trim());
          if (nested) return nested;
        }
        if (inner && typeof inner === 'object' && !Array.isArray(inner)) return inner;
      }
      return value;
    }
  } catch {
    /* not JSON */
  }
  return null;
}

function str(obj: JsonObject | null, ...keys: string[]): string | null {
  if (!obj) return null;
  for (const key of keys) {
    const v = obj[key];
    if (typeof v === 'string' && v.trim()) return v;
  }
  return null;
}

// filepath: Continue cn's Read/Write/Edit.
const PATH_KEYS = ['file_path', 'filePath', 'filepath', 'path', 'notebook_path', 'notebookPath', 'target_file', 'filename', 'file'];

/** Tool names (lower-cased) that change files, and how. */
const WRITE_TOOLS: Record<string, FileAction> = {
  write: 'written',
  write_file: 'written',
  create_file: 'created',
  create: 'created', // GitHub Copilot CLI; Factory Droid's Create {file_path, content}
  edit: 'edited',
  multiedit: 'edited',
  multi_edit: 'edited',
  notebookedit: 'edited',
  notebook_edit: 'edited',
  str_replace_editor: 'edited',
  str_replace_based_edit_tool: 'edited',
  replace: 'edited',
  edit_file: 'edited',
  patch: 'patched',
  apply_patch: 'patched',
  // Cline's `editor {path, new_text}` writes a file; with `old_text` it edits one.
  editor: 'written',
  applypatch: 'patched',
};

/** Files a tool call changed; empty for reads, shell commands without a patch, or unknown input. */
export function fileEffects(toolName: string | null, text: string): FileEffect[] {
  const name = (toolName ?? '').toLowerCase();
  const action = WRITE_TOOLS[name];
  // Most calls are reads and shell commands: decide before paying for JSON.parse.
  if (!action && !text.includes('*** Begin Patch')) return [];
  const input = parseToolInput(text);
  // A patch anywhere in the call (Codex apply_patch, OpenCode patch, a shell heredoc) is authoritative.
  const shellPatch = str(input, 'cmd', 'command');
  const patchText =
    str(input, 'patchText', 'patch', 'input', 'diff') ??
    (shellPatch?.includes('*** Begin Patch') ? shellPatch : null) ??
    (text.includes('*** Begin Patch') ? text : null);
  if (patchText && patchText.includes('*** Begin Patch')) return parseApplyPatch(patchText);
  if (input && Array.isArray(input.command)) {
    const joined = input.command.filter((c): c is string => typeof c === 'string').join('\n');
    if (joined.includes('*** Begin Patch')) return parseApplyPatch(joined);
  }
  if (!action) return [];
  if (patchText && /^(---|\+\+\+|diff --git) /m.test(patchText)) {
    const unified = parseUnifiedDiff(patchText);
    if (unified.length) return unified;
  }
  const path = str(input, ...PATH_KEYS);
  if (path) {
    if (name === 'str_replace_editor' || name === 'str_replace_based_edit_tool') {
      const command = str(input, 'command');
      if (command === 'view') return [];
      if (command === 'create') return [{ path, action: 'created' }];
    }
    if (name === 'editor' && str(input, 'old_text', 'oldText')) return [{ path, action: 'edited' }];
    return [{ path, action }];
  }
  // Edits given as a list of per-file changes (e.g. a multi-file edit tool).
  const edits = input?.edits;
  if (Array.isArray(edits)) {
    const out: FileEffect[] = [];
    for (const e of edits) {
      if (e && typeof e === 'object' && !Array.isArray(e)) {
        const p = str(e, ...PATH_KEYS);
        if (p) out.push({ path: p, action });
      }
    }
    return out;
  }
  return [];
}

/** Files named by a Codex/OpenAI-style `*** Begin Patch` envelope (also Hermes' V4A patches). */
export function parseApplyPatch(patch: string): FileEffect[] {
  const out: FileEffect[] = [];
  const lines = patch.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.replace(/\r$/, '');
    let m: RegExpMatchArray | null;
    if ((m = line.match(/^\*\*\* Add File: (.+)$/))) out.push({ path: m[1]!.trim(), action: 'created' });
    else if ((m = line.match(/^\*\*\* Delete File: (.+)$/))) out.push({ path: m[1]!.trim(), action: 'deleted' });
    else if ((m = line.match(/^\*\*\* Update File: (.+)$/))) {
      const next = lines[i + 1]?.match(/^\*\*\* Move to: (.+)$/);
      if (next) {
        out.push({ path: m[1]!.trim(), action: 'moved' });
        out.push({ path: next[1]!.trim(), action: 'patched' });
        i++;
      } else out.push({ path: m[1]!.trim(), action: 'patched' });
    }
  }
  return out;
}

function parseUnifiedDiff(diff: string): FileEffect[] {
  const out: FileEffect[] = [];
  for (const m of diff.matchAll(/^\+\+\+ (?:b\/)?(.+)$/gm)) {
    const p = m[1]!.trim();
    if (p !== '/dev/null') out.push({ path: p, action: 'patched' });
  }
  return out;
}

// run_shell_command: Qwen Code and Gemini CLI; execute: Factory Droid; run_commands: Cline.
const SHELL_TOOLS = new Set(['bash', 'execute', 'shell', 'exec_command', 'run_shell_command', 'local_shell', 'local_shell_call', 'terminal', 'run_command', 'execute_command', 'run_terminal_cmd', 'container.exec', 'unified_exec', 'run_commands']);

/** The shell command a tool call ran, or null when it is not a shell call. */
export function shellCommand(toolName: string | null, text: string): string | null {
  const name = (toolName ?? '').toLowerCase();
  if (!SHELL_TOOLS.has(name)) return null;
  const input = parseToolInput(text);
  if (!input) return text.trim() || null;
  // Cline's `run_commands {commands: [...]}`: separate commands, run one after the other.
  if (Array.isArray(input.commands)) {
    const commands = input.commands.filter((c): c is string => typeof c === 'string' && c.trim() !== '');
    if (commands.length) return commands.join('; ');
  }
  for (const key of ['command', 'cmd', 'commandLine', 'script']) {
    const v = input[key];
    if (typeof v === 'string' && v.trim()) return v.trim();
    if (Array.isArray(v)) {
      const parts = v.filter((p): p is string => typeof p === 'string');
      // ["bash", "-lc", "npm test"] → the script itself.
      if (parts.length === 3 && /(^|\/)(ba|z)?sh$/.test(parts[0]!) && /^-\w*c$/.test(parts[1]!)) return parts[2]!.trim();
      if (parts.length) return parts.join(' ');
    }
  }
  return null;
}
