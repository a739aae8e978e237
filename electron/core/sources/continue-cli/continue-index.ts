/**
 * cn's `sessions/sessions.json` index: `[{sessionId, title, dateCreated (epoch ms as a string),
 * workspaceDirectory, messageCount}]`. Only `dateCreated` is taken (the documents hold no time);
 * the file is re-read only when its size or mtime changed.
 */
import fs from 'node:fs';

export class ContinueIndex {
  private stat = '';
  private readonly createdAt = new Map<string, string>();

  refresh(file: string, report: (message: string) => void): void {
    let stat: string;
    try {
      const st = fs.statSync(file);
      stat = `${st.size}:${st.mtimeMs}`;
    } catch {
      return; // no index (yet): sessions go without a start time
    }
    if (stat === this.stat) return;
    this.stat = stat;
    let entries: unknown;
    try {
      entries = JSON.parse(fs.readFileSync(file, 'utf8'));
    } catch (err) {
      report(`sessions.json could not be read (${err instanceof Error ? err.message : String(err)}); start times wait for its next write`);
      this.stat = ''; // caught mid-rewrite: read it again next time
      return;
    }
    if (!Array.isArray(entries)) return;
    for (const e of entries) {
      if (typeof e !== 'object' || e === null) continue;
      const { sessionId, dateCreated } = e as { sessionId?: unknown; dateCreated?: unknown };
      const ms = typeof dateCreated === 'string' || typeof dateCreated === 'number' ? Number(dateCreated) : NaN;
      if (typeof sessionId === 'string' && Number.isFinite(ms)) this.createdAt.set(sessionId, new Date(ms).toISOString());
    }
  }

  created(sessionId: string): string | null {
    return this.createdAt.get(sessionId) ?? null;
  }
}
