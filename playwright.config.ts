// Playwright reads its settings from a default export here; they live in tests/e2e.
import { e2eConfig } from './tests/e2e/e2e.config'

export default e2eConfig
