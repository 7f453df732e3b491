import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** A fresh folder for each test of the suite it is called in, removed after; answers its path. */
export function useTempFolder(prefix: string): () => string {
  let folder: string | undefined
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), prefix))
  })
  afterEach(async () => {
    if (folder !== undefined) await rm(folder, { recursive: true, force: true })
    folder = undefined
  })
  return () => folder ?? fail()
}

function fail(): never {
  throw new Error('the temporary folder is made for each test, and only there')
}
