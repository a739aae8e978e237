/**
 * The API a read-only CLI command answers from. When the app or `baton serve` runs for this data dir
 * and its index is current (it watches every store), the command asks it over loopback with the
 * token: no store re-check, no index open, no core modules loaded. Otherwise, or when the running
 * Baton does not answer, the command opens the core itself (`openCliCore`) as before.
 */
import type httpModule from 'node:http';
import type { ApiMethod, ApiParsedInput, ApiResult } from '../../shared/contract.js';
import { TokenStore } from '../core/auth/token-store.js';
import { batonDataDir, currentEnvironment, type Environment } from '../core/paths.js';
import { readServerFile, type ServerFile } from '../core/server/server-file.js';
import { SYNC_PATH, type SyncAnswer } from '../core/server/sync-route.js';

/**
 * The calls the CLI makes this way: reads whose answer is the same from any current index (a brief
 * too: the running Baton has its tokenizer loaded already, which costs a one-shot process ~0.2 s).
 */
type CliMethod = Extract<ApiMethod, 'listSessions' | 'search' | 'usageReport' | 'generateBrief'>;
export type CliApi = { [M in CliMethod]: (input: ApiParsedInput<M>) => Promise<ApiResult<M>> };

export interface CliApiHandle {
  api: CliApi;
  /** Where the answer comes from: the running Baton's URL, or null for this process's own index. */
  server: string | null;
  /** Every indexed session's id and native id (what a `<ref>` can match), for unique short ids. */
  sessionKeys(): Promise<{ id: string; nativeId: string }[]>;
  close(): Promise<void>;
}

const TIMEOUT_MS = 5000;

// node:http, not fetch: fetch loads undici on first use, tens of milliseconds a CLI call would pay.
// And taken as the built-in's own object, not through `import`: an ESM import of node:http reads
// every export to build its facade, which includes the lazy WebSocket getter that loads undici anyway.
const http = process.getBuiltinModule('node:http') as typeof httpModule;
function post<T>(server: ServerFile, token: string, route: string, body: unknown): Promise<{ status: number; body: T }> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${server.url}${route}`,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
        timeout: TIMEOUT_MS,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          try {
            resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as T });
          } catch (err) {
            reject(err as Error);
          }
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer from ${server.url} within ${TIMEOUT_MS} ms`)));
    req.on('error', reject);
    req.end(payload);
  });
}

/**
 * A running Baton whose index is current, or null (none, still indexing, not answering). Current
 * means as of now, not as of the watcher's last report: /sync re-checks every store file's size and
 * mtime and reads what changed before it answers (see server/sync-route.ts).
 */
async function currentServer(dataDir: string): Promise<{ server: ServerFile; token: string; sync: SyncAnswer } | null> {
  const server = readServerFile(dataDir);
  if (!server) return null;
  // Read only now: with no Baton running, a one-shot command has no use for the token.
  const token = new TokenStore(dataDir).get();
  try {
    const sync = await post<SyncAnswer>(server, token, SYNC_PATH, {});
    return sync.status === 200 ? { server, token, sync: sync.body } : null;
  } catch {
    return null;
  }
}

function remoteApi(server: ServerFile, token: string): CliApi {
  const call =
    <M extends CliMethod>(method: M) =>
    async (input: ApiParsedInput<M>): Promise<ApiResult<M>> => {
      const res = await post<ApiResult<M> | { error?: { message?: string } }>(server, token, `/api/${method}`, input);
      if (res.status !== 200) {
        const message = (res.body as { error?: { message?: string } }).error?.message ?? `HTTP ${res.status}`;
        throw new Error(message);
      }
      return res.body as ApiResult<M>;
    };
  return { listSessions: call('listSessions'), search: call('search'), usageReport: call('usageReport'), generateBrief: call('generateBrief') };
}

async function pagedKeys(page: (offset: number) => Promise<{ sessions: { id: string; nativeId: string }[]; total: number }>): Promise<{ id: string; nativeId: string }[]> {
  const keys: { id: string; nativeId: string }[] = [];
  for (let offset = 0; ; ) {
    const p = await page(offset);
    keys.push(...p.sessions.map((s) => ({ id: s.id, nativeId: s.nativeId })));
    offset += p.sessions.length;
    if (p.sessions.length === 0 || offset >= p.total) return keys;
  }
}

/**
 * `reveal` (`--no-redact`): the answer comes from this process's own index, since a running Baton
 * redacts what it sends for the token (agents hold it); otherwise every result is redacted here too.
 */
export async function openCliApi(environment: Environment = currentEnvironment(), options: { reveal?: boolean } = {}): Promise<CliApiHandle> {
  const reveal = options.reveal === true;
  const remote = reveal ? null : await openServerApi(environment);
  if (remote) return remote;
  const { openCliCore } = await import('./cli-core.js');
  const { redacting } = await import('./cli-redaction.js');
  const cli = await openCliCore({ environment });
  // Straight from the index: hidden sessions too, since a `<ref>` can name them.
  const reader = () => cli.core.sources.reader;
  return { api: redacting<CliApi>(cli.core.api, reveal), server: null, sessionKeys: () => pagedKeys(async (offset) => reader().listSessions({ limit: 10_000, offset })), close: () => cli.close() };
}

/**
 * The running Baton's API for this data dir when one answers with a current index, else null (also
 * with BATON_NO_SERVER=1). Its answers are already redacted: the token never gets anything else.
 */
export async function openServerApi(environment: Environment = currentEnvironment()): Promise<CliApiHandle | null> {
  if (environment.env.BATON_NO_SERVER === '1') return null;
  const dataDir = batonDataDir(environment);
  const found = await currentServer(dataDir);
  if (!found) return null;
  const api = remoteApi(found.server, found.token);
  return { api, server: found.server.url, sessionKeys: () => pagedKeys((offset) => api.listSessions({ limit: 1000, offset })), close: async () => {} };
}

/** What `syncViaServer` reports: which Baton brought the index current, and what its pass read. */
export interface ServerSync {
  url: string;
  read: SyncAnswer['read'];
}

/**
 * Has the running Baton for this data dir bring its index current (the one writer of that index),
 * or null when none answers with its first pass done (also with BATON_NO_SERVER=1): the caller
 * then indexes itself.
 */
export async function syncViaServer(environment: Environment = currentEnvironment()): Promise<ServerSync | null> {
  if (environment.env.BATON_NO_SERVER === '1') return null;
  const dataDir = batonDataDir(environment);
  const found = await currentServer(dataDir);
  return found && { url: found.server.url, read: found.sync.read };
}

/**
 * Changes settings through the running Baton for this data dir, so it applies them live (it keeps
 * settings in memory and would overwrite a file changed behind its back). False when none answers:
 * the caller then writes the settings file itself.
 */
export async function updateSettingsViaServer(patch: ApiParsedInput<'updateSettings'>, environment: Environment = currentEnvironment()): Promise<boolean> {
  if (environment.env.BATON_NO_SERVER === '1') return false;
  const dataDir = batonDataDir(environment);
  const server = readServerFile(dataDir);
  if (!server) return false;
  try {
    const res = await post<unknown>(server, new TokenStore(dataDir).get(), '/api/updateSettings', patch);
    return res.status === 200;
  } catch {
    return false;
  }
}
