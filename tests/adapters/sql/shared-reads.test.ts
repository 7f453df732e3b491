import { openDatabase } from '@/adapters/sql/database'
import { compiledOnce, selectNewsPage } from '@/adapters/sql/news/queries'
import { SharedReads } from '@/adapters/sql/news/shared-reads'

describe('SharedReads', () => {
  it('runs identical reads asked for together once, and after the last of them asked', async () => {
    const reads = new SharedReads()
    const events: string[] = []
    let runs = 0
    const read = async () => {
      runs += 1
      events.push('query')
      return runs
    }
    const asked = [reads.share('page 1', read), reads.share('page 1', read)]
    events.push('asked twice')
    asked.push(reads.share('page 1', read))
    events.push('asked thrice')
    expect(await Promise.all(asked)).toEqual([1, 1, 1])
    expect(events).toEqual(['asked twice', 'asked thrice', 'query'])
  })

  it('runs different reads apart, and a read asked once the query started on its own', async () => {
    const reads = new SharedReads()
    let runs = 0
    let started!: () => void
    const running = new Promise<void>((resolve) => (started = resolve))
    const slow = async () => {
      runs += 1
      started()
      await new Promise((resolve) => setTimeout(resolve, 20))
      return 'slow'
    }
    const first = reads.share('page 1', slow)
    const other = reads.share('page 2', async () => {
      runs += 1
      return 'other'
    })
    await running
    const late = reads.share('page 1', async () => {
      runs += 1
      return 'late'
    })
    expect(await Promise.all([first, other, late])).toEqual(['slow', 'other', 'late'])
    expect(runs).toBe(3)
  })

  it('hands a failure to every read that shared the query, and keeps nothing', async () => {
    const reads = new SharedReads()
    const failing = async () => {
      throw new Error('the database failed')
    }
    const both = [reads.share('page 1', failing), reads.share('page 1', failing)]
    for (const read of both) await expect(read).rejects.toThrow('the database failed')
    await expect(reads.share('page 1', async () => 'fine')).resolves.toBe('fine')
  })
})

describe('compiledOnce', () => {
  it('puts each value where its stand-in was, in the order the SQL wants them', async () => {
    const database = await openDatabase('sqlite::memory:')
    try {
      const page = compiledOnce(selectNewsPage(database.db, 25, { at: 'AT', id: 'ID' }), [
        'ID',
        'AT',
      ])
      const compiled = page(['id-1', '2026-01-02T03:04:05.678Z'])
      const built = selectNewsPage(database.db, 25, {
        at: '2026-01-02T03:04:05.678Z',
        id: 'id-1',
      }).compile()
      expect(compiled.sql).toBe(built.sql)
      expect(compiled.parameters).toEqual(built.parameters)
    } finally {
      await database.close()
    }
  })

  it('refuses a query with a value that is not a stand-in', async () => {
    const database = await openDatabase('sqlite::memory:')
    try {
      expect(() =>
        compiledOnce(selectNewsPage(database.db, 24, { at: 'AT', id: 'ID' }), ['AT']),
      ).toThrow(/not its stand-ins/)
    } finally {
      await database.close()
    }
  })
})
