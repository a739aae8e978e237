/**
 * Copilot CLI's `session-state/<id>/workspace.yaml`: the session's name (the first prompt until a
 * `/rename`, which writes no event) lives only here. Each file is re-read only when its size or
 * mtime changed; the name stamps the session's unit so a rename alone re-reads it.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';

// Required when a workspace.yaml is first read: every other store's reader (and every CLI call
// that lists the stores) would otherwise load the YAML parser for nothing.
let yamlParse: ((text: string) => unknown) | null = null;
function parse(text: string): unknown {
  yamlParse ??= (createRequire(import.meta.url)('yaml') as typeof Yaml).parse;
  return yamlParse(text);
}

interface Entry {
  stat: string;
  name: string | null;
}

export class CopilotWorkspaces {
  private readonly byFile = new Map<string, Entry>();
  private readonly bySession = new Map<string, string | null>();

  /** The session's name, from `file` (re-read only when it changed); null when absent or unreadable. */
  refresh(sessionId: string, file: string, report: (message: string) => void): string | null {
    let stat: string;
    try {
      const st = fs.statSync(file);
      stat = `${st.size}:${st.mtimeMs}`;
    } catch {
      this.byFile.delete(file);
      this.bySession.set(sessionId, null);
      return null; // a session folder without workspace.yaml: the first prompt stands in
    }
    const known = this.byFile.get(file);
    if (known?.stat === stat) {
      this.bySession.set(sessionId, known.name);
      return known.name;
    }
    let name: string | null = null;
    try {
      const doc: unknown = parse(fs.readFileSync(file, 'utf8'));
      if (typeof doc === 'object' && doc !== null && 'name' in doc && typeof doc.name === 'string' && doc.name.length > 0) name = doc.name;
    } catch (err) {
      report(`workspace.yaml could not be read (${err instanceof Error ? err.message : String(err)}); the title falls back to the first prompt`);
    }
    this.byFile.set(file, { stat, name });
    this.bySession.set(sessionId, name);
    return name;
  }

  name(sessionId: string): string | null {
    return this.bySession.get(sessionId) ?? null;
  }
}
