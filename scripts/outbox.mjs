// `npm run outbox`: prints the outbox (scripts/outbox.ts), compiled when stale, run with node.
import { ensureServerBuilt, runCompiled } from './built.mjs'

await ensureServerBuilt()
await runCompiled('outbox')
