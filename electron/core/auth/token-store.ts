/**
 * The access token that guards the HTTP API, the MCP endpoint and /ingest. Created on first run,
 * stored with mode 0600 in the data dir; regenerating it invalidates the old one at once.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { writeFileAtomic } from '../fs/atomic-write.js';

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{32,128}$/;

export class TokenStore {
  readonly file: string;
  private token: string;

  /** `fileName` 'ui-session' holds the browser UI's login secret (see server/ui-credentials.ts). */
  constructor(dataDir: string, fileName = 'token') {
    this.file = path.join(dataDir, fileName);
    this.token = this.readOrCreate();
  }

  get(): string {
    return this.token;
  }

  regenerate(): string {
    this.token = newToken();
    writeFileAtomic(this.file, `${this.token}\n`, 0o600);
    return this.token;
  }

  /** Constant-time comparison so the token cannot be guessed byte by byte from timings. */
  matches(candidate: string | null | undefined): boolean {
    if (!candidate) return false;
    const a = Buffer.from(candidate);
    const b = Buffer.from(this.token);
    return a.length === b.length && timingSafeEqual(a, b);
  }

  private readOrCreate(): string {
    try {
      const existing = fs.readFileSync(this.file, 'utf8').trim();
      if (TOKEN_PATTERN.test(existing)) return existing;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    return this.regenerate();
  }
}

function newToken(): string {
  return randomBytes(32).toString('base64url');
}
