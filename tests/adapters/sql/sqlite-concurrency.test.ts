import { spawn } from 'node:child_process'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { JournaledNewsRepository } from '@/application/journaled-news.repository'
import { openDatabase } from '@/adapters/sql/database'
import { SqlNewsStore } from '@/adapters/sql/news/store'
import { useTempFolder } from '../../support/temp-folder'

const CHILD = 'tests/adapters/sql/support/conditional-edit.child.ts'

interface Outcome {
  readonly ok: boolean
  readonly code?: string
  readonly revision?: number
  readonly title?: string
}

/** Starts one editor process; resolves `ready` when it waits for the go file. */
function startEditor(url: string, id: string, title: string, goFile: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, url, id, title, goFile], {
    cwd: process.cwd(),
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  let err = ''
  let markReady = (): void => undefined
  const ready = new Promise<void>((resolve) => (markReady = resolve))
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString()
    if (out.includes('ready\n')) markReady()
  })
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()))
  const outcome = new Promise<Outcome>((resolve, reject) => {
    child.on('exit', (code) => {
      const last = out.trim().split('\n').at(-1) ?? ''
      if (code !== 0 || !last.startsWith('{')) reject(new Error(`editor failed (${code}): ${err}`))
      else resolve(JSON.parse(last) as Outcome)
    })
  })
  return { ready, outcome, kill: () => child.kill('SIGKILL') }
}

describe('SqlNewsStore on one SQLite file shared by two processes', () => {
  const folder = useTempFolder('newswire-concurrency-')

  it('lets exactly one of two simultaneous conditional edits of one revision win; the other is stale', async () => {
    const url = `sqlite:${join(folder(), 'newswire.db')}`
    const database = await openDatabase(url)
    const journal = new JournaledNewsRepository(new SqlNewsStore(database))
    const item = await journal.create({ title: 'Original', body: 'Body.', author: 'Ada' })
    await database.close()

    const goFile = join(folder(), 'go')
    const editors = ['From process A', 'From process B'].map((title) =>
      startEditor(url, item._id, title, goFile),
    )
    try {
      await Promise.all(editors.map((editor) => editor.ready))
      await writeFile(goFile, 'go')
      const outcomes = await Promise.all(editors.map((editor) => editor.outcome))

      const winners = outcomes.filter((outcome) => outcome.ok)
      expect(winners).toHaveLength(1)
      expect(winners[0]?.revision).toBe(2)
      // Not Unavailable: the loser waited for the winner's write lock, then saw revision 2.
      expect(outcomes.filter((outcome) => !outcome.ok)).toEqual([
        expect.objectContaining({ ok: false, code: 'Stale' }),
      ])

      const again = await openDatabase(url)
      try {
        const { items: history } = await new JournaledNewsRepository(
          new SqlNewsStore(again),
        ).revisions(item._id, {})
        expect(history.map((revision) => [revision.revision, revision.title])).toEqual([
          [2, winners[0]?.title],
          [1, 'Original'],
        ])
      } finally {
        await again.close()
      }
    } finally {
      for (const editor of editors) editor.kill()
    }
  }, 30_000)
})
