import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { sql } from 'kysely'
import { openDatabase } from '@/adapters/sql/database'
import {
  DATABASE_URL_FORMS,
  describeDatabase,
  parseDatabaseUrl,
  readDatabaseUrl,
} from '@/application/database-target'
import {
  EVENT_STREAM_LEASE_CLIENT_INDEX,
  EVENT_STREAM_LEASE_EXPIRES_INDEX,
  EVENT_STREAM_LEASE_HOLDER_INDEX,
  IDEMPOTENCY_KEY_CREATED_AT_INDEX,
  NEWS_CHANGE_AT_INDEX,
  NEWS_CHANGE_REVISION_INDEX,
  NEWS_LIST_INDEX,
  NEWS_REVISION_AT_INDEX,
  NEWS_REVISION_EDITOR_INDEX,
  CLIENT_BLOCK_TARGET_INDEX,
  OPERATOR_ACTION_AT_INDEX,
  NEWS_SEARCH_SEQ_INDEX,
  NEWS_TRASH_INDEX,
  RATE_LIMIT_WINDOW_END_INDEX,
} from '@/adapters/sql/migrations/index-names'
import { useTempFolder } from '../../support/temp-folder'

describe('DATABASE_URL', () => {
  it.each([
    ['sqlite:./data/newswire.db', { engine: 'sqlite', path: './data/newswire.db' }],
    ['sqlite::memory:', { engine: 'sqlite', path: ':memory:' }],
    ['sqlite:/var/lib/newswire/news.db', { engine: 'sqlite', path: '/var/lib/newswire/news.db' }],
    [
      'postgres://news:secret@db:6543/newswire',
      {
        engine: 'postgres',
        connectionString: 'postgres://news:secret@db:6543/newswire',
        host: 'db',
        port: 6543,
        preparedStatements: true,
      },
    ],
    [
      'postgresql://db/newswire?sslmode=require',
      {
        engine: 'postgres',
        connectionString: 'postgresql://db/newswire?sslmode=require',
        host: 'db',
        port: 5432,
        preparedStatements: true,
      },
    ],
    [
      'postgres://news@localhost/newswire?host=/run/postgresql&port=5433',
      {
        engine: 'postgres',
        connectionString: 'postgres://news@localhost/newswire?host=/run/postgresql&port=5433',
        host: '/run/postgresql',
        port: 5433,
        preparedStatements: true,
      },
    ],
    [
      'postgres://news@pgbouncer/newswire?host=/run/pgbouncer&prepared_statements=off',
      {
        engine: 'postgres',
        // NewsWire's own setting is kept from the driver, which reads the rest as before.
        connectionString: 'postgres://news@pgbouncer/newswire?host=%2Frun%2Fpgbouncer',
        host: '/run/pgbouncer',
        port: 5432,
        preparedStatements: false,
      },
    ],
  ])('reads %s', (url, target) => {
    expect(parseDatabaseUrl(url)).toEqual(target)
  })

  it.each([
    '',
    'sqlite:',
    'mysql://root:hunter2@db/news',
    './data/newswire.db',
    'postgres:db',
    'postgres://news:hunter2@db:99999/newswire',
  ])('refuses %j, naming the accepted forms but not the value', (url) => {
    expect(readDatabaseUrl(url)).toBeUndefined()
    expect(() => parseDatabaseUrl(url)).toThrow(/sqlite:PATH.*postgres:\/\//)
    expect(DATABASE_URL_FORMS).not.toMatch(/hunter2/)
  })

  it('hides a PostgreSQL password when it describes the database for a log', () => {
    expect(describeDatabase(parseDatabaseUrl('postgres://news:s3cret@db:5432/newswire'))).toBe(
      'postgres://news:***@db:5432/newswire',
    )
    expect(describeDatabase(parseDatabaseUrl('sqlite:./data/newswire.db'))).toBe(
      'sqlite:./data/newswire.db',
    )
  })
})

describe('openDatabase on SQLite', () => {
  const folder = useTempFolder('newswire-db-')

  it('creates the folder and the file, in WAL mode with durable (FULL) commits', async () => {
    const path = join(folder(), 'nested', 'deeper', 'newswire.db')
    const database = await openDatabase(`sqlite:${path}`)
    try {
      expect(database.engine).toBe('sqlite')
      expect(existsSync(path)).toBe(true)
      const journal = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(database.db)
      expect(journal.rows[0]?.journal_mode).toBe('wal')
      const synchronous = await sql<{ synchronous: number }>`pragma synchronous`.execute(
        database.db,
      )
      expect(synchronous.rows[0]?.synchronous).toBe(2) // 2 is FULL
    } finally {
      await database.close()
    }
  })

  it('creates the tables and the indexes, and records each migration once', async () => {
    const url = `sqlite:${join(folder(), 'newswire.db')}`
    await (await openDatabase(url)).close()
    const database = await openDatabase(url)
    try {
      const tables = await database.db.introspection.getTables()
      expect(tables.map((table) => table.name).sort()).toEqual([
        'client_block',
        'event_stream_lease',
        'idempotency_key',
        'news',
        'news_change',
        'news_protection',
        'news_revision',
        // The full-text index and the shadow tables FTS5 keeps it in.
        'news_search',
        'news_search_config',
        'news_search_data',
        'news_search_docsize',
        'news_search_idx',
        'operator_action',
        'outbox_message',
        'rate_limit',
        'site_secret',
        'site_version',
        'sitemap_block',
      ])
      const indexes = await sql<{ name: string }>`
        select name from sqlite_master where type = 'index' and name not like 'sqlite_%'
      `.execute(database.db)
      expect(indexes.rows.map((row) => row.name).sort()).toEqual(
        [
          NEWS_LIST_INDEX,
          NEWS_TRASH_INDEX,
          NEWS_REVISION_AT_INDEX,
          NEWS_REVISION_EDITOR_INDEX,
          CLIENT_BLOCK_TARGET_INDEX,
          OPERATOR_ACTION_AT_INDEX,
          IDEMPOTENCY_KEY_CREATED_AT_INDEX,
          RATE_LIMIT_WINDOW_END_INDEX,
          NEWS_SEARCH_SEQ_INDEX,
          EVENT_STREAM_LEASE_CLIENT_INDEX,
          EVENT_STREAM_LEASE_HOLDER_INDEX,
          EVENT_STREAM_LEASE_EXPIRES_INDEX,
          NEWS_CHANGE_REVISION_INDEX,
          NEWS_CHANGE_AT_INDEX,
        ].sort(),
      )
      const applied = await sql<{ name: string }>`select name from kysely_migration`.execute(
        database.db,
      )
      expect(applied.rows.map((row) => row.name)).toEqual([
        '0001-news',
        '0002-outbox',
        '0003-history',
        '0004-rate-limit',
        '0005-site-version',
        '0006-search',
        '0007-change-log',
        '0008-event-stream-leases',
        '0009-refold-search',
        '0010-site-secrets',
        '0011-editors',
        '0012-moderation',
        '0013-recent-changes',
        '0014-sitemap-blocks',
      ])
    } finally {
      await database.close()
    }
  })

  it('rejects with a clear error when the path cannot be a database', async () => {
    // The folder itself is not a database file.
    await expect(openDatabase(`sqlite:${folder()}`)).rejects.toThrow(
      /could not open the sqlite database/,
    )
  })
})

describe('openDatabase on PostgreSQL', () => {
  it('rejects, without the password, when the server cannot be reached', async () => {
    // Port 1 on the loopback refuses at once.
    const opening = openDatabase('postgres://news:hunter2@127.0.0.1:1/newswire')
    await expect(opening).rejects.toThrow(/could not open the postgres database/)
    await expect(opening).rejects.not.toThrow(/hunter2/)
  })
})
