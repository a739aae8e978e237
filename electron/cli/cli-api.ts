/**
 * The API a read-only CLI command answers from. When the app or `baton serve` runs for this data dir
 * (it watches every store), the command has it bring its index current and asks it over loopback
 * with the token: no store re-check, no index open, no core modules loaded. While it runs a pass,
 * the command follows that pass instead of indexing beside it (or, during its first pass, may read
 * what it has so far). Otherwise, or when the running Baton does not answer, the command opens the
 * core itself (`openCliCore`) as before.
 */
import type httpModule from 'node:http';
import type { ApiMethod, ApiParsedInput, ApiResult } from '../../shared/contract.js';
import { TokenStore } from '../core/auth/token-store.js';
import { batonDataDir, currentEnvironment, type Environment } from '../core/paths.js';
import { readServerFile, type ServerFile } from '../core/server/server-file.js';
import { SYNC_PATH, type SyncAnswer, type SyncBusy } from '../core/server/sync-route.js';

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

/** How a command treats a running Baton whose first pass has not ended (its index is partial). */
export type FirstPass =
  /** Answer from what it has indexed so far, with a note on stderr (list, search, usage). */
  | 'partial'
  /** Wait for the pass to end (`baton index`, a brief: `--last` must be the latest session). */
  | 'wait';

export interface ReachOptions {
  firstPass: FirstPass;
  /** Called at each poll while a pass runs and the command waits for it. */
  onWait?: (busy: SyncBusy) => void;
  /** A pass whose progress has not moved for this long is given up on (default STALL_MS). */
  stallMs?: number;
}

/** How often a waiting command asks again: a 503 costs the running Baton one progress read. */
const POLL_MS = 250;
/** A pass reads a file at a time and reports each: a minute without one is a Baton that is stuck. */
const STALL_MS = 60_000;

interface Reached {
  server: ServerFile;
  token: string;
  /** The answer of the catch-up pass; null when the command reads a partial index (`partial`). */
  sync: SyncAnswer | null;
  /** The last pass seen running while the command waited or, with `partial`, the one still running. */
  busy: SyncBusy | null;
}

/**
 * The running Baton for this data dir, brought current, or null (none, its ingest failed, not
 * answering): the caller then opens the index itself. Current means as of now, not as of the
 * watcher's last report: /sync re-checks every store file's size and mtime and reads what changed
 * before it answers (see server/sync-route.ts). While that Baton runs a pass with work, this
 * follows it (one poll per POLL_MS) rather than indexing beside it: the index keeps one writer.
 * Only a pass that stops moving (stallMs) is given up on, and then this process indexes itself.
 */
async function reachRunningBaton(dataDir: string, opts: ReachOptions): Promise<Reached | null> {
  const server = readServerFile(dataDir);
  if (!server) return null;
  // Read only now: with no Baton running, a one-shot command has no use for the token.
  const token = new TokenStore(dataDir).get();
  let busy: SyncBusy | null = null;
  let moved = Date.now();
  for (;;) {
    let res: { status: number; body: SyncAnswer | SyncBusy };
    try {
      res = await post<SyncAnswer | SyncBusy>(server, token, SYNC_PATH, {});
    } catch {
      return null;
    }
    if (res.status === 200) return { server, token, sync: res.body as SyncAnswer, busy };
    if (res.status !== 503 || !isSyncBusy(res.body) || res.body.phase === 'error') return null;
    if (!busy || progressed(busy, res.body)) moved = Date.now();
    else if (Date.now() - moved > (opts.stallMs ?? STALL_MS)) return null; // stuck: index here instead
    busy = res.body;
    // Before its first pass starts (`idle`, a moment after launch) there is nothing to read yet: wait.
    if (!busy.firstPassDone && busy.phase !== 'idle' && opts.firstPass === 'partial') return { server, token, sync: null, busy };
    opts.onWait?.(busy);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

function progressed(before: SyncBusy, now: SyncBusy): boolean {
  return now.phase !== before.phase || now.files.done !== before.files.done || now.bytes.done !== before.bytes.done || now.files.total !== before.files.total;
}

/** Every count a 503 carries is checked: they reach the terminal (the note, the bar) as they are. */
function isSyncBusy(body: unknown): body is SyncBusy {
  const b = body as Partial<SyncBusy> | null;
  const count = (n: unknown) => Number.isSafeInteger(n) && (n as number) >= 0;
  return (
    typeof b === 'object' &&
    b !== null &&
    typeof b.phase === 'string' &&
    typeof b.firstPassDone === 'boolean' &&
    count(b.files?.done) &&
    count(b.files?.total) &&
    count(b.bytes?.done) &&
    count(b.bytes?.total)
  );
}

/** An `onWait` that says once, on stderr, that the command waits for the running Baton's pass. */
export function noteWaitOnce(write: (line: string) => void = (line) => process.stderr.write(line)): (busy: SyncBusy) => void {
  let said = false;
  return (busy) => {
    if (said) return;
    said = true;
    const what = busy.firstPassDone ? 'a pass over changed files' : 'its first index';
    write(`baton: waiting for the running Baton to finish ${what} (${busy.files.done}/${busy.files.total} files so far)\n`);
  };
}

/** The stderr note of an answer read from a running Baton's partial index. */
export function partialIndexNote(url: string, busy: SyncBusy): string {
  const read = busy.files.total > 0 ? ` (${busy.files.done}/${busy.files.total} files read)` : '';
  return `baton: the running Baton (${url}) is still building its index${read}; this answer holds only what it has indexed so far\n`;
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
 * `firstPass`: see FirstPass (default: answer from a partial index, with a note).
 */
export async function openCliApi(
  environment: Environment = currentEnvironment(),
  options: { reveal?: boolean; firstPass?: FirstPass; onWait?: (busy: SyncBusy) => void } = {},
): Promise<CliApiHandle> {
  const reveal = options.reveal === true;
  const remote = reveal ? null : await openServerApi(environment, { firstPass: options.firstPass ?? 'partial', onWait: options.onWait ?? noteWaitOnce() });
  if (remote) return remote;
  const { openCliCore } = await import('./cli-core.js');
  const { redacting } = await import('./cli-redaction.js');
  const cli = await openCliCore({ environment });
  // Straight from the index: hidden sessions too, since a `<ref>` can name them.
  const reader = () => cli.core.sources.reader;
  return { api: redacting<CliApi>(cli.core.api, reveal), server: null, sessionKeys: () => pagedKeys(async (offset) => reader().listSessions({ limit: 10_000, offset })), close: () => cli.close() };
}

/**
 * The running Baton's API for this data dir, brought current (see reachRunningBaton), else null
 * (also with BATON_NO_SERVER=1). Its answers are already redacted: the token never gets anything
 * else. An answer from its partial index (first pass, `partial`) comes with a note on `warn`.
 */
export async function openServerApi(
  environment: Environment = currentEnvironment(),
  options: ReachOptions & { warn?: (line: string) => void } = { firstPass: 'wait' },
): Promise<CliApiHandle | null> {
  if (environment.env.BATON_NO_SERVER === '1') return null;
  const dataDir = batonDataDir(environment);
  const found = await reachRunningBaton(dataDir, options);
  if (!found) return null;
  if (!found.sync && found.busy) (options.warn ?? ((line: string) => process.stderr.write(line)))(partialIndexNote(found.server.url, found.busy));
  const api = remoteApi(found.server, found.token);
  return { api, server: found.server.url, sessionKeys: () => pagedKeys((offset) => api.listSessions({ limit: 1000, offset })), close: async () => {} };
}

/** What `syncViaServer` reports: which Baton brought the index current, and what its passes read. */
export interface ServerSync {
  url: string;
  /** What its catch-up pass read. */
  read: SyncAnswer['read'];
  /** The pass it was running when asked, which this call waited for (its totals); null: none. */
  followed: SyncBusy | null;
}

/**
 * Has the running Baton for this data dir bring its index current (the one writer of that index),
 * waiting for a pass it runs (its first one included), or null when none answers or its ingest
 * failed (also with BATON_NO_SERVER=1): the caller then indexes itself.
 */
export async function syncViaServer(environment: Environment = currentEnvironment(), onWait?: (busy: SyncBusy) => void): Promise<ServerSync | null> {
  if (environment.env.BATON_NO_SERVER === '1') return null;
  const dataDir = batonDataDir(environment);
  const found = await reachRunningBaton(dataDir, { firstPass: 'wait', onWait });
  return found?.sync ? { url: found.server.url, read: found.sync.read, followed: found.busy } : null;
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
