import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url))
export const RESULTS_DIR = join(REPO_ROOT, 'test-results')
export const SCREENSHOTS_DIR = join(RESULTS_DIR, 'screenshots')
export const AXE_DIR = join(RESULTS_DIR, 'axe')
