import { makeFixtureHome } from '../../testing/fixture-home.js';
import { fixtureAdapters } from '../../index/test-support.js';
import { openIndexForWriting } from '../../index/index-db.js';
import { IndexWriter } from '../../index/index-writer.js';
import { IndexSync } from '../../index/index-sync.js';
import { SessionIndex } from '../../index/session-index.js';
const home = makeFixtureHome();
const db = openIndexForWriting(home.env.BATON_HOME!);
await new IndexSync(new IndexWriter(db), fixtureAdapters(home.env)).syncAll();
const index = new SessionIndex(home.env.BATON_HOME!);
for (const s of index.listSessions({ limit: 100 }).sessions) {
  console.log('==', s.id, s.cwd, s.gitBranch, s.model, s.messageCount, JSON.stringify(s.firstPrompt));
  for (const m of index.getMessages(s.id, { kinds: ['tool_call', 'tool_result'] })) console.log('  ', m.seq, m.role, m.kind, m.toolName, m.toolCallId, m.isError, JSON.stringify(m.text.slice(0, 160)));
}
index.close(); db.close(); home.cleanup();
