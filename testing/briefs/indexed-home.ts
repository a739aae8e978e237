/** Test support: a fixture home indexed by the real adapters and the real SQLite index. */
import { makeFixtureHome, type FixtureHome } from '../fixture-home.js';
import { fixtureAdapters } from '../index-support.js';
import { openIndexForWriting } from '../../electron/core/index/index-db.js';
import { IndexWriter } from '../../electron/core/index/index-writer.js';
import { StoreSync } from '../../electron/core/ingest/store-sync.js';
import { SessionIndex } from '../../electron/core/index/session-index.js';

export interface IndexedHome {
  home: FixtureHome;
  dataDir: string;
  index: SessionIndex;
  /** Re-reads the stores (after a test wrote a transcript). */
  sync(): Promise<void>;
  close(): void;
}

export async function indexedFixtureHome(prepare?: (home: FixtureHome) => void): Promise<IndexedHome> {
  const home = makeFixtureHome();
  prepare?.(home);
  const dataDir = home.env.BATON_HOME!;
  const db = openIndexForWriting(dataDir);
  const sync = new StoreSync(new IndexWriter(db), fixtureAdapters(home.env));
  await sync.syncAll();
  const index = new SessionIndex(dataDir);
  return {
    home,
    dataDir,
    index,
    sync: async () => {
      await sync.syncAll();
    },
    close: () => {
      index.close();
      db.close();
      home.cleanup();
    },
  };
}
