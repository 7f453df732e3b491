/**
 * `npm start`: builds what is stale (the browser's app, the compiled server; scripts/built.mjs),
 * then runs the compiled server in this process with node alone, so that SIGTERM or SIGINT sent
 * to npm, or to this process, stops the server itself. `--no-build` skips the checks.
 */
import { ensureBrowserBuilt, ensureServerBuilt, runCompiled } from './built.mjs'

if (!process.argv.includes('--no-build')) {
  ensureBrowserBuilt()
  await ensureServerBuilt()
}
await runCompiled('server')
