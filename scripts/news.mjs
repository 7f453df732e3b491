// `npm run news`: the operator's commands (scripts/news.ts), compiled when stale, run with node.
import { ensureServerBuilt, runCompiled } from './built.mjs'

await ensureServerBuilt()
await runCompiled('news')
