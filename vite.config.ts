import { writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL, URL } from 'node:url'
import { brotliCompressSync, constants as zlibConstants } from 'node:zlib'
import { gzipAsync } from '@gfx/zopfli'
import react from '@vitejs/plugin-react'
import type { Plugin, Rolldown } from 'vite'
import { defineConfig } from 'vitest/config'

const apiTarget = process.env.API_PROXY_TARGET ?? 'http://localhost:3000'

/** A file of react-router's production build, which the package's exports do not name. */
const reactRouterBuild = (file: string) =>
  fileURLToPath(
    new URL(
      `dist/production/${file}`,
      pathToFileURL(createRequire(import.meta.url).resolve('react-router/package.json')),
    ),
  )

/**
 * Lighter code for the same work, in builds only. react-router's package exports its
 * development build, dev warnings included, and ships the production one beside it. React 19
 * has useSyncExternalStore built in, so @xstate/react needs no shim for older Reacts.
 */
/** The built files that are sent compressed; the pages' template and source maps are not. */
const COMPRESSIBLE = /\.(js|css|svg|json|webmanifest)$/

/**
 * Writes a `.gz` and a `.br` beside each of the browser build's files, compressed once with the
 * strongest settings, which @fastify/static sends as they are (`preCompressed`, spa.routes.ts)
 * instead of compressing on every request. The gzip is Zopfli's: standard gzip that every
 * browser reads, about 3 % smaller than zlib's best, for a second of build time.
 */
const precompressed: Plugin = {
  name: 'newswire:precompressed',
  apply: 'build',
  applyToEnvironment: (environment) => environment.name === 'client',
  async writeBundle({ dir }, bundle) {
    if (dir === undefined) return
    for (const [file, output] of Object.entries(bundle)) {
      if (!COMPRESSIBLE.test(file)) continue
      const content =
        output.type === 'chunk' ? Buffer.from(output.code) : Buffer.from(output.source)
      const path = join(dir, file)
      await writeFile(`${path}.gz`, await gzipAsync(content, { numiterations: 15 }))
      await writeFile(
        `${path}.br`,
        brotliCompressSync(content, {
          params: {
            [zlibConstants.BROTLI_PARAM_QUALITY]: zlibConstants.BROTLI_MAX_QUALITY,
            [zlibConstants.BROTLI_PARAM_SIZE_HINT]: content.length,
          },
        }),
      )
    }
  },
}

const productionBuilds: Plugin = {
  name: 'newswire:production-builds',
  apply: 'build',
  // react-router makes its components and contexts with top-level calls the bundler must keep
  // unless marked pure, and names each one, which keeps it too. Marked pure and unnamed (the
  // names only label React DevTools), the ones the app never renders, such as <Form>, drop out.
  transform: (code, id) =>
    id.startsWith(reactRouterBuild('chunk-'))
      ? {
          code: code
            .replace(
              /^var (\w+) = (React\d*\.(?:forwardRef|createContext|memo)\()/gm,
              'var $1 = /* @__PURE__ */ $2',
            )
            .replace(/^\w+\.displayName = "[^"]*";$/gm, ''),
          // Lines stay where they were, so the file's source map still holds.
          map: null,
        }
      : null,
  config: () => ({
    resolve: {
      alias: [
        { find: /^react-router$/, replacement: reactRouterBuild('index.mjs') },
        { find: /^react-router\/dom$/, replacement: reactRouterBuild('dom-export.mjs') },
        { find: /^use-sync-external-store\/shim$/, replacement: 'use-sync-external-store' },
        {
          find: /^use-sync-external-store\/shim\/with-selector$/,
          replacement: 'use-sync-external-store/with-selector',
        },
      ],
    },
  }),
}

/**
 * Everything the first visit runs, in one chunk beside the entry's own module. Left to itself
 * the bundler puts the code that the first visit shares with later screens (React, React
 * Router, the domain's errors) in a chunk per set of screens that share it, each compressed
 * apart from the others: 1.3 KB more gzip on the first visit. Code that only later screens
 * import (formik, yup, dayjs, ...) is not reached from the entry through static imports, so it
 * stays in their chunks. The entry's own module stays in the entry chunk, which index.html and
 * the build manifest name.
 */
function firstVisitChunk(id: string, bundle: Rolldown.ChunkingContext): string | null {
  const isEntry = (module: string) => bundle.getModuleInfo(module)?.isEntry === true
  const imported = (module: string) => bundle.getModuleInfo(module)?.importers ?? []
  if (isEntry(id) || imported(id).some(isEntry)) return null
  const seen = new Set<string>()
  const reachedFromEntry = (module: string): boolean => {
    if (seen.has(module)) return false
    seen.add(module)
    return isEntry(module) || imported(module).some(reachedFromEntry)
  }
  return reachedFromEntry(id) ? 'first-visit' : null
}

/**
 * The fast core, the inner loop: the domain, the use cases and the machines' model paths on
 * in-memory adapters, and the browser's adapters against local stand-ins. No DOM, no database,
 * no build, no server process.
 */
const CORE_TESTS = [
  'tests/{domain,application,support,composition}/**/*.test.{ts,tsx}',
  'tests/model/*.model.test.ts',
  'tests/adapters/{memory,http}/**/*.test.{ts,tsx}',
  'tests/build/deferred-use-cases.test.ts',
]

/** The screens in jsdom, on the in-memory composition root. */
const SCREEN_TESTS = ['tests/ui/**/*.test.{ts,tsx}', 'tests/adapters/emailjs/**/*.test.ts']

/** What builds the app or runs the generators: the bundle budget and the statecharts. */
const BUILD_TESTS = ['tests/build/home-bundle.test.ts', 'tests/statecharts/*.test.ts']

export default defineConfig({
  plugins: [react(), productionBuilds, precompressed],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  server: {
    // The API runs beside Vite in development; see `npm run dev`.
    proxy: { '/api': { target: apiTarget, changeOrigin: false } },
  },
  // `vite build` builds both environments: the browser's app (dist/) and, for the server, the
  // entry that renders pages with the same screens (dist-server/, see page-renderer.loader.ts).
  builder: {},
  environments: {
    client: {
      build: {
        rolldownOptions: { output: { codeSplitting: { groups: [{ name: firstVisitChunk }] } } },
      },
    },
    ssr: {
      build: {
        outDir: 'dist-server',
        copyPublicDir: false,
        rollupOptions: { input: { 'server-render': 'src/ui/app/server-render.tsx' } },
      },
    },
  },
  build: {
    manifest: true,
    modulePreload: { polyfill: false },
    // Images load as files, not as data inside the JavaScript that every visit downloads.
    assetsInlineLimit: 0,
    target: 'es2022',
    sourcemap: true,
  },
  test: {
    globals: true,
    environment: 'node',
    exclude: ['tests/e2e/**', 'node_modules/**'],
    restoreMocks: true,
    // Under a full parallel run on 2 cores a jsdom flow of a second alone can take several.
    testTimeout: 15_000,
    // One project per question (README, Tests): `npm run test:core` is the inner loop.
    projects: [
      { extends: true, test: { name: 'core', include: CORE_TESTS } },
      {
        extends: true,
        // jest-dom's matchers, and each test's fresh local storage.
        test: { name: 'screens', include: SCREEN_TESTS, setupFiles: ['tests/setup.ts'] },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['tests/**/*.test.{ts,tsx}'],
          exclude: [...CORE_TESTS, ...SCREEN_TESTS, ...BUILD_TESTS, 'tests/e2e/**'],
          // The server and the operator's commands also run as built (dist-node/), as `npm start`
          // and `npm run news` run them.
          globalSetup: ['tests/global-setup.ts'],
        },
      },
      { extends: true, test: { name: 'build', include: BUILD_TESTS } },
    ],
  },
})
