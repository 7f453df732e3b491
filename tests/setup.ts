import '@testing-library/jest-dom/vitest'
import { configure } from '@testing-library/dom'

// The suites run in parallel on a 2-core machine: a screen that answers in a tenth of a second
// alone can take a few under load, so findBy and waitFor wait up to 3 s (1 s by default).
configure({ asyncUtilTimeout: 3000 })

// The forms keep drafts in the browser's local storage by default: each test starts with none.
beforeEach(() => {
  globalThis.localStorage?.clear()
  globalThis.sessionStorage?.clear()
})
