/**
 * Test support: a Baton core over a fixture home (see fixture-home.ts), indexed once on this thread,
 * not watching: the API every surface goes through, on the real stores.
 */
import { createBatonCore, type BatonCore } from '../electron/core/service.js';
import type { FixtureHome } from './fixture-home.js';

export async function startFixtureCore(fixture: FixtureHome): Promise<BatonCore> {
  const core = await createBatonCore({
    environment: { env: fixture.env, platform: process.platform, home: fixture.home },
    dataDir: String(fixture.env.BATON_HOME),
    ingest: 'inline',
    watch: false,
    log: () => {},
  });
  await core.start();
  await core.whenCurrent();
  return core;
}
