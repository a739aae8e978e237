import type { Command } from 'commander';
import type cliProgressModule from 'cli-progress';
import { rawStream } from '../terminal-output.js';
import { batonDataDir, currentEnvironment } from '../../core/paths.js';

const MB = 1024 * 1024;

/** `by`: the running Baton that brought the index current, or null when this process did. */
function summaryLine(
  s: { sessions: number; goneSessions: number; messages: number; bytesOnDisk: number },
  read: { bytesRead: number; unitsRead: number } | null,
  ms: number,
  dataDir: string,
  by: string | null,
): string {
  const what = read ? `read ${(read.bytesRead / MB).toFixed(1)} MB from ${read.unitsRead} changed file(s)` : 'brought current';
  return (
    `${s.sessions} sessions (${s.goneSessions} kept after their source was deleted), ${s.messages} messages; ` +
    `${what} in ${(ms / 1000).toFixed(1)} s${by ? ` by the running Baton (${by})` : ''}; index ${(s.bytesOnDisk / MB).toFixed(1)} MB at ${dataDir}\n`
  );
}

/**
 * A rebuild deletes the index files: a running Baton would go on writing into the deleted file and
 * keep answering from it, with session rowids that no longer match the new one.
 */
async function refuseWhileRunning(): Promise<void> {
  const { readServerFile } = await import('../../core/server/server-file.js');
  const running = readServerFile(batonDataDir(currentEnvironment()));
  if (running) {
    throw new Error(
      `Baton is running for this data dir (pid ${running.pid}, ${running.url}) and holds the index open; ` +
        'quit the app or stop `baton serve`, then run `baton index --rebuild` again',
    );
  }
}

/** The progress bar on stderr, its package loaded at the first progress with work to show. */
function progressBar(): { show(done: { files: number; bytes: number }, total: { files: number; bytes: number }): void; stop(): void } {
  let bar: cliProgressModule.SingleBar | null = null;
  return {
    show(done, total) {
      const payload = { filesDone: done.files, filesTotal: total.files, mbDone: (done.bytes / MB).toFixed(1), mbTotal: (total.bytes / MB).toFixed(1) };
      if (bar) {
        bar.setTotal(total.bytes);
        bar.update(done.bytes, payload);
        return;
      }
      // The built-in's own object: a static import of node:module would load it for `--help` too.
      const { createRequire } = process.getBuiltinModule('node:module');
      const cliProgress = createRequire(import.meta.url)('cli-progress') as typeof cliProgressModule;
      bar = new cliProgress.SingleBar(
        { format: 'indexing [{bar}] {percentage}% | {filesDone}/{filesTotal} files | {mbDone}/{mbTotal} MB', stream: rawStream(process.stderr) as NodeJS.WriteStream, hideCursor: true },
        cliProgress.Presets.shades_classic,
      );
      bar.start(total.bytes, done.bytes, payload);
    },
    stop() {
      bar?.stop();
    },
  };
}

/**
 * The index a running Baton holds has one writer, that Baton: it is asked to catch up (the same
 * stat-each-file pass, in the process that watches the stores) instead of this one writing beside
 * it, and a pass it is running (its first one too) is followed on the bar until it ends. False when
 * none answers or its ingest failed: this process indexes itself.
 */
async function syncedByRunningBaton(): Promise<boolean> {
  const started = Date.now();
  const { syncViaServer, noteWaitOnce } = await import('../cli-api.js');
  const bar = progressBar();
  const note = noteWaitOnce();
  let synced;
  try {
    synced = await syncViaServer(undefined, (busy) => {
      note(busy);
      if (busy.bytes.total > 0) bar.show({ files: busy.files.done, bytes: busy.bytes.done }, { files: busy.files.total, bytes: busy.bytes.total });
    });
  } finally {
    bar.stop();
  }
  if (!synced) return false;
  const { SessionIndex } = await import('../../core/index/session-index.js');
  const dataDir = batonDataDir(currentEnvironment());
  const reader = new SessionIndex(dataDir);
  try {
    // What was read while this command waited: the pass it followed, then the catch-up after it.
    const followed = synced.followed;
    const catchUp = synced.read ?? { files: 0, bytes: 0 };
    const read = synced.read || followed ? { unitsRead: catchUp.files + (followed?.files.total ?? 0), bytesRead: catchUp.bytes + (followed?.bytes.total ?? 0) } : null;
    process.stdout.write(summaryLine(reader.stats({ messageRows: false }), read, Date.now() - started, dataDir, synced.url));
  } finally {
    reader.close();
  }
  return true;
}

export function registerIndex(program: Command): void {
  program
    .command('index')
    .description('Bring the session index up to date with the agent stores.')
    .option('--rebuild', 'drop the index and rebuild it from the stores')
    .action(async (opts: { rebuild?: boolean }) => {
      if (opts.rebuild) await refuseWhileRunning();
      else if (await syncedByRunningBaton()) return;
      // The bar's package is loaded at the first progress with work to show: a warm index that
      // finds nothing changed (the common case) never draws one, and should not load it.
      const bar = progressBar();
      // Settings and ingest only, not the whole core (see index-core.ts).
      const { openIndexCore } = await import('../index-core.js');
      const cli = await openIndexCore({
        rebuild: opts.rebuild,
        // On this thread, as every other command's catch-up: a big pass (a first index, a rebuild)
        // still parses in the heap-capped read-ahead worker while this thread writes, and a
        // writer worker of its own only delayed the start of that parse (~60 ms of its start-up).
        ingest: 'inline',
        onProgress: (p) => {
          if (p.phase === 'indexing' && p.bytesTotal > 0) bar.show({ files: p.filesDone, bytes: p.bytesDone }, { files: p.filesTotal, bytes: p.bytesTotal });
        },
      });
      bar.stop();
      try {
        process.stdout.write(summaryLine(cli.sources.reader.stats({ messageRows: false }), cli.catchUp, cli.catchUpMs, cli.dataDir, null));
      } finally {
        await cli.close();
      }
    });
}
