import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import SQLite from 'better-sqlite3'
import { CompiledQuery } from 'kysely'
import { unavailable } from '@/domain/domain-error'
import { SqliteSearchThread } from '@/adapters/sql/sqlite-search-thread'

/** A query that keeps SQLite busy for a while: it counts to `to` one row at a time. */
const busy = (to: number) =>
  CompiledQuery.raw(
    'with recursive c(x) as (select 1 union all select x + 1 from c where x < ?) select count(*) as n from c',
    [to],
  ) as CompiledQuery<{ n: number }>

let folder: string
let path: string
const threads: SqliteSearchThread[] = []

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'newswire-search-thread-'))
  path = join(folder, 'news.db')
  const db = new SQLite(path)
  db.pragma('journal_mode = WAL')
  db.exec("create table word (text text); insert into word values ('harbour'), ('market')")
  db.close()
})

afterAll(async () => {
  await Promise.all(threads.map((thread) => thread.close()))
  await rm(folder, { recursive: true, force: true })
})

/** One query's rows, read on the thread. */
async function rowsOf<Row>(reader: SqliteSearchThread, query: CompiledQuery<Row>): Promise<Row[]> {
  const [rows = []] = await reader.allUntil([query], Number.POSITIVE_INFINITY)
  return rows
}

function thread(maxWaiting?: number): SqliteSearchThread {
  const opened = new SqliteSearchThread(path, maxWaiting)
  threads.push(opened)
  return opened
}

describe('the SQLite search thread', () => {
  it('reads a query while the event loop goes on turning', async () => {
    const reader = thread()
    let turns = 0
    let turning = true
    const turn = (): void => {
      turns += 1
      if (turning) setImmediate(turn)
    }
    setImmediate(turn)
    const rows = await rowsOf(reader, busy(300_000))
    turning = false
    expect(rows).toEqual([{ n: 300_000 }])
    // On the caller's thread the loop could not have turned once during the query.
    expect(turns).toBeGreaterThan(1)
  })

  it.each([
    ['in one trip, each query in turn, the later ones unread once enough rows are', 2, 2],
    ['every query when the rows fall short of enough', 5, 3],
  ])('reads a search’s queries %s', async (_, enough, queries) => {
    const statements: string[] = []
    const reader = new SqliteSearchThread(path, undefined, (timing) => statements.push(timing.kind))
    threads.push(reader)
    const word = (text: string) =>
      CompiledQuery.raw('select text from word where text = ?', [text]) as CompiledQuery<{
        text: string
      }>
    const results = await reader.allUntil(
      [word('harbour'), word('market'), word('harbour')],
      enough,
    )
    expect(results).toEqual(
      [[{ text: 'harbour' }], [{ text: 'market' }], [{ text: 'harbour' }]].slice(0, queries),
    )
    // Each statement the thread ran is told, as Kysely's log tells the others.
    expect(statements).toEqual(Array.from({ length: queries }, () => 'select'))
  })

  it('reads the file as it is now, a statement’s parameters bound', async () => {
    const rows = await rowsOf(
      thread(),
      CompiledQuery.raw('select text from word where text = ?', ['market']),
    )
    expect(rows).toEqual([{ text: 'market' }])
  })

  it('answers a statement that fails with its error, and goes on reading', async () => {
    const reader = thread()
    await expect(
      rowsOf(reader, CompiledQuery.raw('select * from nothing_here', [])),
    ).rejects.toThrow(/no such table/)
    expect(await rowsOf(reader, busy(3))).toEqual([{ n: 3 }])
  })

  it('refuses a search at once, Unavailable, past the searches it lets wait', async () => {
    const reader = thread(2)
    const first = rowsOf(reader, busy(200_000))
    const second = rowsOf(reader, busy(3))
    const third = rowsOf(reader, busy(3))
    await expect(third).rejects.toEqual(unavailable())
    expect(await first).toEqual([{ n: 200_000 }])
    expect(await second).toEqual([{ n: 3 }])
  })

  it('refuses searches once closed', async () => {
    const reader = thread()
    await reader.close()
    await expect(rowsOf(reader, busy(3))).rejects.toMatchObject({ code: 'Unavailable' })
  })
})
