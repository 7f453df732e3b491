import { existsSync } from 'node:fs'
import { pathToFileURL } from 'node:url'
import type { PageRenderer } from '@/server/services/page-renderer'

/**
 * The app's server entry, which `npm run build` writes beside the browser's files: for `dist/`,
 * `dist-server/server-render.js` (vite.config.ts, the ssr environment). Undefined when there is
 * none (a dist folder without it, as in the API's tests): the browser then renders every page.
 */
export async function loadPageRenderer(distDir: string): Promise<PageRenderer | undefined> {
  const entry = `${distDir.replace(/[\\/]+$/, '')}-server/server-render.js`
  if (!existsSync(entry)) return undefined
  return (await import(pathToFileURL(entry).href)) as PageRenderer
}
