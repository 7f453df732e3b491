import { fileURLToPath } from 'node:url'

export const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url))
export const RESULTS_DIR = fileURLToPath(new URL('../../../test-results', import.meta.url))
export const SCREENSHOTS_DIR = fileURLToPath(
  new URL('../../../test-results/screenshots', import.meta.url),
)
export const AXE_DIR = fileURLToPath(new URL('../../../test-results/axe', import.meta.url))
