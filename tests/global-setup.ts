import { ensureServerBuilt } from '../scripts/built.mjs'

/**
 * Runs once per `npm run test:unit`, before any test file: compiles the server and the operator's
 * commands (dist-node/) when stale, for the tests that run them as `npm start` and `npm run
 * news` do.
 */
export default async function globalSetup(): Promise<void> {
  await ensureServerBuilt()
}
