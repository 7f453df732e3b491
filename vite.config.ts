import { fileURLToPath, URL } from 'node:url'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vitest/config'

const apiTarget = process.env.API_PROXY_TARGET ?? 'http://localhost:3000'

export default defineConfig({
  plugins: [react()],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  server: {
    // The API runs beside Vite in development; see `npm run dev`.
    proxy: { '/api': { target: apiTarget, changeOrigin: false } },
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
    include: ['tests/**/*.test.{ts,tsx}'],
    exclude: ['tests/e2e/**', 'node_modules/**'],
    setupFiles: ['tests/setup.ts'],
    restoreMocks: true,
  },
})
