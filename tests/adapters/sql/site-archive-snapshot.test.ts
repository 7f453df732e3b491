import { sql } from 'kysely'
import { openDatabase, type SqlDatabase } from '@/adapters/sql/database'
import { CARRIED_TABLES } from '@/adapters/sql/site-archive/archive-tables'
import { inSnapshot, siteRows } from '@/adapters/sql/site-archive/site-rows'
import { describeOnDatabases } from '../../support/test-databases'

describeOnDatabases('reading a site for an archive on $name', (kind) => {
  let reader: SqlDatabase
  let writer: SqlDatabase
  let dispose: () => Promise<void>

  beforeAll(async () => {
    const store = await kind.create()
    dispose = store.dispose
    reader = await openDatabase(store.url)
    writer = await openDatabase(store.url)
  })
  afterAll(async () => {
    await reader.close()
    await writer.close()
    await dispose()
  })

  it('reads one snapshot: a revision written after the first row is read is not in it', async () => {
    const addRevision = (id: string) =>
      sql`
        insert into news_revision (news_id, revision, title, body, author, action, at)
        values (${id}, 1, 'T', 'B', 'A', 'create', '2026-05-01T12:00:00.000Z')
      `.execute(writer.db)
    await addRevision('before')
    const read = await inSnapshot(reader.db, async (snapshot) => {
      const rows = siteRows(snapshot, reader.engine, CARRIED_TABLES)
      const first = await rows.next()
      expect(first.value).toMatchObject({ table: 'site_version' })
      await addRevision('during')
      const rest: string[] = []
      for await (const record of rows) {
        if (record.table === 'news_revision') rest.push(String(record.row.news_id))
      }
      return rest
    })
    expect(read).toEqual(['before'])
  })
})
