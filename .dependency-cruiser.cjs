/**
 * `npm run lint` runs this: no import cycles, so that each module can be read, and tested, after
 * the ones it imports. dependency-cruiser rather than eslint-plugin-import-x, whose resolver
 * needs native bindings the npm registry mirror in CI does not hold for every platform, which
 * leaves a lock file that `npm ci` refuses. Type-only imports count too.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import cycle: break it by moving the shared part into a module of its own.',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    exclude: { path: '^(node_modules|dist|dist-server)/' },
  },
}
