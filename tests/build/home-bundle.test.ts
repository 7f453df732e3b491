import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { measureHomeBundle, type HomeBundle } from '../../scripts/bench/home-bundle'

describe('the production build', () => {
  const outDir = mkdtempSync(join(tmpdir(), 'newswire-build-'))
  let bundle: HomeBundle

  beforeAll(async () => {
    // Vitest sets NODE_ENV=test, under which Vite would not build as for production.
    execFileSync('npx', ['vite', 'build', '--logLevel', 'error', '--outDir', outDir], {
      env: { ...process.env, NODE_ENV: 'production' },
    })
    bundle = await measureHomeBundle(outDir)
  }, 120_000)

  afterAll(() => rmSync(outDir, { recursive: true, force: true }))

  it('keeps formik, yup, EmailJS, dayjs and the toasts out of the first visit to /', () => {
    const loaded = new Set(bundle.chunks.flatMap((chunk) => chunk.packages))
    expect(loaded).toContain('react-dom')
    expect(loaded).toContain('react-masonry-css')
    for (const lazy of ['formik', 'yup', '@emailjs/browser', 'dayjs', 'react-toastify']) {
      expect(loaded, `${lazy} loads on /`).not.toContain(lazy)
    }
  })
})
