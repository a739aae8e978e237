/**
 * Global setup of the vitest and Playwright suites: the run fails when a test changed `../shared`
 * (see shared-guard.ts). Both runners call the returned function as the global teardown.
 */
import { guardSharedDir } from './shared-guard.js';

export default function sharedGuardSetup(): () => void {
  return guardSharedDir();
}
