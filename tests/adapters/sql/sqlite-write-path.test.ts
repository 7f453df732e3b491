import { existsSync } from 'node:fs'
import { rm, writeFile, type FileHandle } from 'node:fs/promises'
import { join } from 'node:path'
import SQLite from 'better-sqlite3'
import { sql } from 'kysely'
import { openDatabase, type SqlDatabase } from '@/adapters/sql/database'
import { SqlNewsStore } from '@/adapters/sql/news/store'
import { SqlRateLimitStore } from '@/adapters/sql/sql-rate-limit.store'
import { withPreparedStatements } from '@/adapters/sql/sqlite-statements'
import { WalFlush } from '@/adapters/sql/sqlite-wal-flush'
import { storedNews } from '../../support/news-item'
import { useTempFolder } from '../../support/temp-folder'

const folder = useTempFolder('newswire-write-path-')

async function synchronousOf(database: SqlDatabase): Promise<number | undefined> {
  const { rows } = await sql<{ synchronous: number }>`pragma synchronous`.execute(database.db)
  return rows[0]?.synchronous
}

/** A WalFlush of `log` that counts the flushes that reached a file. */
function countingFlush(log: string) {
  let synced = 0
  const flush = new WalFlush(log, async (file) => {
    await file.datasync()
    synced += 1
  })
  return { flush, synced: () => synced }
}

describe('WalFlush', () => {
  it('flushes the log file, and takes a log SQLite has already removed as flushed', async () => {
    const log = join(folder(), 'news.db-wal')
    await writeFile(log, 'frames')
    const { flush, synced } = countingFlush(log)
    await flush.flush()
    expect(synced()).toBe(1)
    await flush.close()
    await rm(log)
    const removed = new WalFlush(log)
    await expect(removed.flush()).resolves.toBeUndefined()
    await removed.close()
  })

  it('rejects when the log cannot be flushed, so that the write is not acknowledged', async () => {
    // A folder where the log should be: it cannot be opened for writing.
    await expect(new WalFlush(folder()).flush()).rejects.toThrow()
  })

  it('keeps the log open between flushes, and opens it again after close', async () => {
    const log = join(folder(), 'news.db-wal')
    await writeFile(log, 'frames')
    const files: FileHandle[] = []
    const flush = new WalFlush(log, async (file) => {
      files.push(file)
      await file.datasync()
    })
    await flush.flush()
    await flush.flush()
    expect(files[1]).toBe(files[0])
    await flush.close()
    expect(files[0]?.fd).toBe(-1) // closed
    await flush.flush()
    expect(files[2]?.fd).toBeGreaterThan(-1)
    await flush.close()
  })

  it('finds a log SQLite creates after the first flush found none', async () => {
    const log = join(folder(), 'news.db-wal')
    const { flush, synced } = countingFlush(log)
    await flush.flush()
    expect(synced()).toBe(0)
    await writeFile(log, 'frames')
    await flush.flush()
    expect(synced()).toBe(1)
    await flush.close()
  })

  it('gives writers that commit while a flush runs the next flush, begun after they asked', async () => {
    const log = join(folder(), 'news.db-wal')
    await writeFile(log, 'frames')
    const events: string[] = []
    let flushes = 0
    const flush = new WalFlush(log, async (file) => {
      const number = (flushes += 1)
      events.push(`begin ${number}`)
      await file.datasync()
      events.push(`end ${number}`)
    })
    const first = flush.flush()
    events.push('asked while 1 runs')
    const joiners = Array.from({ length: 9 }, () => flush.flush())
    await Promise.all([first, ...joiners])
    expect(events).toEqual(['asked while 1 runs', 'begin 1', 'end 1', 'begin 2', 'end 2'])
    // Once all is flushed, the next writer gets a flush of its own.
    await flush.flush()
    expect(flushes).toBe(3)
    await flush.close()
  })
})

describe('the SQLite write path', () => {
  it('keeps the connection at synchronous FULL between writes and counts', async () => {
    const database = await openDatabase(`sqlite:${join(folder(), 'news.db')}`)
    try {
      const store = new SqlNewsStore(database)
      const counter = new SqlRateLimitStore(database)
      await store.transaction(async (tx) => tx.insert(storedNews(tx.newId())))
      expect(await synchronousOf(database)).toBe(2) // FULL
      const unit = await counter.reserve('client', 60_000, 60)
      expect(await synchronousOf(database)).toBe(2)
      await counter.giveBack('client', unit.windowEnd)
      expect(await synchronousOf(database)).toBe(2)
      await expect(
        store.transaction(async () => {
          throw new Error('the work failed')
        }),
      ).rejects.toThrow()
      expect(await synchronousOf(database)).toBe(2)
    } finally {
      await database.close()
    }
  })

  it('has a write in the log file, for another connection to read, once it is answered', async () => {
    const path = join(folder(), 'news.db')
    const database = await openDatabase(`sqlite:${path}`)
    try {
      const store = new SqlNewsStore(database)
      const id = await store.transaction(async (tx) => {
        const item = storedNews(tx.newId())
        await tx.insert(item)
        return item._id
      })
      expect(existsSync(`${path}-wal`)).toBe(true)
      const other = new SQLite(path, { readonly: true })
      try {
        expect(other.prepare('select title from news where id = ?').get(id)).toEqual({
          title: `Title of ${id}`,
        })
      } finally {
        other.close()
      }
    } finally {
      await database.close()
    }
  })

  it('still counts every unit of the write limit, with its commit left to the next flush', async () => {
    const database = await openDatabase(`sqlite:${join(folder(), 'news.db')}`)
    try {
      const counter = new SqlRateLimitStore(database)
      const units = await Promise.all(
        Array.from({ length: 20 }, () => counter.reserve('client', 60_000, 60)),
      )
      expect(units.map((unit) => unit.count).sort((a, b) => a - b)).toEqual(
        Array.from({ length: 20 }, (_, index) => index + 1),
      )
    } finally {
      await database.close()
    }
  })
})

describe('withPreparedStatements', () => {
  it('prepares each SQL text once, and forgets the oldest beyond its size', () => {
    const connection = new SQLite(':memory:')
    const database = withPreparedStatements(connection, 2)
    try {
      const one = database.prepare('select 1 as n')
      expect(database.prepare('select 1 as n')).toBe(one)
      database.prepare('select 2 as n')
      database.prepare('select 3 as n')
      expect(database.prepare('select 1 as n')).not.toBe(one)
      expect(database.prepare('select 1 as n').all([])).toEqual([{ n: 1 }])
    } finally {
      database.close()
    }
  })

  it('gives a query of its own to a text whose statement is still being iterated', () => {
    const connection = new SQLite(':memory:')
    const database = withPreparedStatements(connection)
    try {
      const streaming = database.prepare('select value from json_each(?)')
      const rows = streaming.iterate(['[1,2,3]'])
      rows.next()
      const other = database.prepare('select value from json_each(?)')
      expect(other).not.toBe(streaming)
      expect(other.all(['[4]'])).toEqual([{ value: 4 }])
      expect([...rows]).toEqual([{ value: 2 }, { value: 3 }])
    } finally {
      database.close()
    }
  })
})

describe('SqlNewsStore reads that arrive together', () => {
  it('each see every write that was answered before they were asked', async () => {
    const database = await openDatabase(`sqlite:${join(folder(), 'news.db')}`)
    try {
      const store = new SqlNewsStore(database)
      const write = (title: string) =>
        store.transaction(async (tx) => {
          const item = { ...storedNews(tx.newId()), title }
          await tx.insert(item)
          return item._id
        })
      const before = [store.list({ limit: 24 }), store.list({ limit: 24 })]
      const id = await write('Written between the reads')
      const after = [store.list({ limit: 24 }), store.list({ limit: 24 })]
      const found = store.find(id)
      const [first, second] = await Promise.all(before)
      const [third, fourth] = await Promise.all(after)
      // Reads asked for before the write may see it or not, but alike: they shared one query.
      expect(second).toBe(first)
      expect((await found)?.title).toBe('Written between the reads')
      expect(third?.items.map((item) => item._id)).toEqual([id])
      expect(fourth).toBe(third)
    } finally {
      await database.close()
    }
  })
})
