import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { build, type Rollup } from 'vite'

const BUILD_TIMEOUT = 180_000
const root = resolve(import.meta.dirname, '..', '..')
const INSPECTOR_MODULE = '@statelyai/inspect'
/** A string the inspector's code holds and nothing else in the app does: its default address. */
const INSPECTOR_MARK = 'stately.ai/inspect'

/**
 * Builds the app in memory (nothing is written to dist/) and returns its JavaScript chunks.
 * Vite derives import.meta.env.DEV from NODE_ENV, which Vitest sets to 'test', so each build
 * sets it as `npm run build` (production) and `npm run dev` (development) would.
 */
async function buildChunks(mode: 'production' | 'development'): Promise<Rollup.OutputChunk[]> {
  const nodeEnv = process.env.NODE_ENV
  process.env.NODE_ENV = mode
  try {
    const result = await build({
      root,
      configFile: join(root, 'vite.config.ts'),
      mode,
      logLevel: 'silent',
      build: { write: false, sourcemap: false },
    })
    const outputs = (Array.isArray(result) ? result : [result]) as Rollup.RollupOutput[]
    return outputs
      .flatMap((output) => output.output)
      .filter((file): file is Rollup.OutputChunk => file.type === 'chunk')
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV
    else process.env.NODE_ENV = nodeEnv
  }
}

function inspectorIn(chunks: readonly Rollup.OutputChunk[]) {
  return {
    modules: chunks
      .flatMap((chunk) => chunk.moduleIds)
      .filter((id) => id.includes(INSPECTOR_MODULE)),
    marked: chunks
      .filter((chunk) => chunk.code.includes(INSPECTOR_MARK))
      .map((chunk) => chunk.fileName),
  }
}

describe('the live inspector', { timeout: BUILD_TIMEOUT }, () => {
  it('is attached by the browser entry, behind import.meta.env.DEV and ?inspect', () => {
    const entry = readFileSync(join(root, 'src', 'composition', 'browser', 'main.tsx'), 'utf8')
    expect(entry).toMatch(
      /import\.meta\.env\.DEV && new URLSearchParams\(location\.search\)\.has\('inspect'\)/,
    )
    expect(entry).toContain(`import('${INSPECTOR_MODULE}')`)
    const inspector = readFileSync(
      join(root, 'node_modules', '@statelyai', 'inspect', 'dist', 'index.mjs'),
      'utf8',
    )
    expect(inspector).toContain(INSPECTOR_MARK)
  })

  it('is bundled when import.meta.env.DEV holds, so the check below can see it', async () => {
    const found = inspectorIn(await buildChunks('development'))
    expect(found.modules).not.toEqual([])
    expect(found.marked).not.toEqual([])
  })

  it('is absent from the production bundle', async () => {
    const chunks = await buildChunks('production')
    expect(chunks.length).toBeGreaterThan(0)
    expect(inspectorIn(chunks)).toEqual({ modules: [], marked: [] })
  })
})
