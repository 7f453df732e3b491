import { readdirSync } from 'node:fs'
import js from '@eslint/js'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'

/**
 * React Router's own links carry framework mode's prefetching, which the first visit would
 * download and never run: the app's links are ui/shared/links.tsx, on React Router's hooks.
 */
const ROUTER_LINKS = {
  name: 'react-router-dom',
  importNames: ['Link', 'NavLink'],
  message: "Use Link and NavLink from '@/ui/shared/links'.",
}

/**
 * The hexagon's dependency rule: ui/server → adapters → application → domain, and only the
 * composition roots choose adapters. Imports across folders go through the `@/` alias so
 * that these patterns see them.
 */
const layer = (files, forbidden, message, inner = []) => ({
  files,
  rules: {
    'no-restricted-imports': [
      'error',
      {
        paths: [ROUTER_LINKS],
        patterns: [
          { group: ['../*'], message: 'Import across folders through the @/ alias.' },
          ...forbidden.map((group) => ({ group: [group].flat(), message })),
          ...inner,
        ],
      },
    ],
  },
})

/** The screens under src/ui/features/, each a folder of its own. */
const FEATURES = readdirSync(new URL('src/ui/features', import.meta.url))

const outsideDomain = ['@/application/*', '@/adapters/*', '@/ui/*', '@/server/*', '@/composition/*']
const serverForbidden = ['@/adapters/*', '@/ui/*', '@/composition/*', 'inversify']
const frameworks = [
  'react',
  'react-*',
  'xstate',
  '@xstate/*',
  'inversify',
  'formik',
  'yup',
  'fastify',
  '@fastify/*',
  'kysely',
  'pg',
  'better-sqlite3',
  '@emailjs/*',
  'dayjs',
]

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'dist-server/**',
      'dist-node/**',
      'coverage/**',
      'node_modules/**',
      'test-results/**',
      'docs/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  {
    // Where React runs: the screens and their tests. Elsewhere `use…` is a plain name
    // (useCasesFor, the composition roots' wiring), not a hook.
    files: ['src/ui/**/*.{ts,tsx}', 'src/**/*.tsx', 'tests/**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  layer(
    ['src/domain/**'],
    [...outsideDomain, ...frameworks],
    'domain/ imports nothing outside domain/.',
  ),
  layer(
    ['src/application/**'],
    ['@/adapters/*', '@/ui/*', '@/server/*', '@/composition/*', ...frameworks],
    'application/ depends on domain/ and its ports only.',
  ),
  layer(
    ['src/contract/**'],
    ['@/adapters/*', '@/ui/*', '@/server/*', '@/composition/*', 'inversify', 'fastify'],
    'contract/ is the HTTP contract (wire, problem and route schemas): the server answers by it and the HTTP adapter reads by it.',
  ),
  layer(
    ['src/adapters/**'],
    ['@/ui/*', '@/server/*', '@/composition/*', 'inversify'],
    'adapters/ implement ports; they know no driving side and no container.',
  ),
  layer(
    ['src/ui/**'],
    ['@/adapters/*', '@/server/*', '@/composition/*', 'inversify'],
    'ui/ gets its use cases through provided machines; only the composition root picks adapters.',
  ),
  layer(
    ['src/ui/features/**', 'src/ui/shared/**'],
    ['@/adapters/*', '@/server/*', '@/composition/*', 'inversify', '@/ui/app/*'],
    'Screens and shared UI know no adapter and no app shell: ui/app composes them, in the browser and on the server.',
  ),
  // A feature (a screen and its parts) imports no other feature: what two share lives in ui/shared.
  ...FEATURES.map((feature) =>
    layer(
      [`src/ui/features/${feature}/**`],
      [
        '@/adapters/*',
        '@/server/*',
        '@/composition/*',
        'inversify',
        '@/ui/app/*',
        FEATURES.filter((other) => other !== feature).map((other) => `@/ui/features/${other}/*`),
      ],
      'A feature imports no other feature (nor adapters or the app shell): what features share lives in ui/shared.',
    ),
  ),
  layer(
    ['src/server/**'],
    serverForbidden,
    'server/ gets its use cases from the server composition root.',
  ),
  // Inside server/ (fastify/demo's shape): app.ts registers plugins/ and routes/; plugins/ and
  // services/ serve the routes and never reach into them.
  layer(
    ['src/server/plugins/**', 'src/server/services/**'],
    serverForbidden,
    'server/ gets its use cases from the server composition root.',
    [
      {
        group: ['@/server/routes/*', '@/server/app'],
        message:
          'server/plugins and server/services serve the routes: they import no route and not the app.',
      },
    ],
  ),
  layer(['src/composition/**'], [], ''),
  // Import cycles are refused by dependency-cruiser (.dependency-cruiser.cjs, part of npm run lint).
  // Tests and scripts stand outside the hexagon; they may share helpers by relative path.
  { files: ['tests/**', 'scripts/**'], rules: { 'no-restricted-imports': 'off' } },
)
