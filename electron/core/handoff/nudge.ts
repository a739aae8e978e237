/**
 * The Stop hook's nudge: tell a running Baton that an agent just finished a turn, so the index
 * re-reads the stores now instead of at the watcher's next tick. A loopback call with the token;
 * when no Baton runs (no live `server.json`) nothing is sent. Never waits long.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { AgentId } from '../../../shared/model.js';
import { readServerFile } from '../server/server-file.js';

export const NUDGE_PATH = '/nudge';

export type NudgeOutcome = 'sent' | 'not-running' | 'failed';

export async function nudgeRunningBaton(dataDir: string, agent: AgentId, timeoutMs = 800): Promise<NudgeOutcome> {
  const marker = readServerFile(dataDir);
  if (!marker) return 'not-running';
  let token: string;
  try {
    token = fs.readFileSync(path.join(dataDir, 'token'), 'utf8').trim();
  } catch {
    return 'failed';
  }
  const body = JSON.stringify({ agent });
  // node:http costs tens of ms to load: only the Stop hook, and only with Baton running, pays it.
  const http = await import('node:http');
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: marker.port,
        path: NUDGE_PATH,
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        timeout: timeoutMs,
      },
      (res) => {
        res.resume();
        resolve(res.statusCode !== undefined && res.statusCode < 300 ? 'sent' : 'failed');
      },
    );
    req.once('timeout', () => req.destroy(new Error('timeout')));
    req.once('error', () => resolve('failed'));
    req.end(body);
  });
}
