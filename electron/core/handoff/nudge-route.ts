/**
 * POST /nudge (token-guarded): an agent's Stop hook says a turn just ended. Answers at once and
 * re-reads the stores in the background; nudges that arrive while a pass runs fold into one.
 */
import type { HttpRoute } from '../server/http-server.js';
import { sendJson } from '../server/http-io.js';
import { NUDGE_PATH } from './nudge.js';

export function createNudgeRoute(syncNow: () => Promise<void>, log: (line: string) => void): HttpRoute {
  let running: Promise<void> | null = null;
  let again = false;
  const run = () => {
    running = syncNow()
      .catch((err: unknown) => log(`nudge: index sync failed: ${err instanceof Error ? err.message : String(err)}`))
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          run();
        }
      });
  };
  return {
    path: NUDGE_PATH,
    methods: ['POST'],
    auth: true,
    async handle(_req, res) {
      if (running) again = true;
      else run();
      sendJson(res, 202, { status: 'syncing' });
    },
  };
}
