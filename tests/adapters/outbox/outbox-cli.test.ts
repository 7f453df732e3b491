import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { SqlOutboxMailer } from '@/adapters/outbox/sql-outbox.mailer'
import { openDatabase } from '@/adapters/sql/database'
import { postgresSchema, TEST_POSTGRES_URL } from '../../support/test-databases'

const run = promisify(execFile)
// Each run starts a new node process: a second or more on a busy machine.
const CLI_TIMEOUT = 30_000
const root = resolve(import.meta.dirname, '..', '..', '..')
/** What `npm run outbox` runs: the compiled command (tests/global-setup.ts built it). */
const COMPILED_OUTBOX = 'dist-node/outbox.js'

async function outboxCommand(databaseUrl: string, ...args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, [COMPILED_OUTBOX, ...args], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: databaseUrl },
    })
    return { code: 0, stdout, stderr }
  } catch (thrown) {
    const failed = thrown as { code: number; stdout: string; stderr: string }
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr }
  }
}

describe('npm run outbox', { timeout: CLI_TIMEOUT }, () => {
  let folder = ''

  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'newswire-cli-'))
  })

  const cleanups: Array<() => Promise<void>> = []

  afterEach(async () => {
    await rm(folder, { recursive: true, force: true })
    for (const cleanup of cleanups.splice(0)) await cleanup()
  })

  it('prints the stored messages of DATABASE_URL, newest first', async () => {
    const url = `sqlite:${join(folder, 'newswire.db')}`
    const database = await openDatabase(url)
    const outbox = new SqlOutboxMailer(database)
    await outbox.send({ name: 'Ada', email: 'ada@example.com', message: 'First' })
    await outbox.send({ name: 'Grace', email: 'grace@example.com', message: 'Second' })
    await database.close()

    const { code, stdout } = await outboxCommand(url)
    expect(code).toBe(0)
    expect(stdout).toContain('Outbox: 2 messages, newest first.')
    expect(stdout).toContain('From:     Grace <grace@example.com>')
    expect(stdout.indexOf('Grace')).toBeLessThan(stdout.indexOf('Ada'))

    const limited = await outboxCommand(url, '--limit', '1')
    expect(limited.stdout).toContain('the 1 newest of 2 messages')
    expect(limited.stdout).not.toContain('Ada')
  })

  it('fails as npm run news does, and creates no database, when there is none', async () => {
    const path = join(folder, 'missing', 'newswire.db')
    const { code, stderr } = await outboxCommand(`sqlite:${path}`)
    expect(code).toBe(1)
    expect(stderr).toBe(
      `outbox: there is no database at ${path}; set DATABASE_URL (npm run outbox -- --help)\n`,
    )
    expect(existsSync(path)).toBe(false)
  })

  it('prints its usage, --limit included, for --help and help', async () => {
    for (const args of [['--help'], ['help']]) {
      const { code, stdout } = await outboxCommand('sqlite::memory:', ...args)
      expect(code).toBe(0)
      expect(stdout).toMatch(/^Usage: npm run outbox -- \[command\]/)
      expect(stdout).toContain('list [--limit N]')
      expect(stdout).toContain('delete ID [ID ...]')
    }
  })

  it('deletes handled messages by id, or every one through an id', async () => {
    const url = `sqlite:${join(folder, 'newswire.db')}`
    const database = await openDatabase(url)
    const outbox = new SqlOutboxMailer(database)
    for (const name of ['One', 'Two', 'Three', 'Four']) {
      await outbox.send({ name, email: 'reader@example.com', message: name })
    }
    const ids = (await outbox.list()).map((message) => message.id).reverse()
    await database.close()

    const named = await outboxCommand(url, 'delete', `#${ids[2]}`)
    expect(named).toMatchObject({ code: 0, stdout: 'Deleted 1 message.\n' })
    const through = await outboxCommand(url, 'delete', '--through', String(ids[1]))
    expect(through).toMatchObject({ code: 0, stdout: 'Deleted 2 messages.\n' })
    const left = await outboxCommand(url)
    expect(left.stdout).toContain('Outbox: 1 message, newest first.')
    expect(left.stdout).toContain('From:     Four <reader@example.com>')
  })

  it('says the outbox is empty for a database without messages', async () => {
    const url = `sqlite:${join(folder, 'newswire.db')}`
    await (await openDatabase(url)).close()
    const { code, stdout } = await outboxCommand(url)
    expect(code).toBe(0)
    expect(stdout).toBe('The outbox is empty: no contact message has been stored.\n')
  })

  it('refuses a bad --limit and an unknown DATABASE_URL with a message and a failing status', async () => {
    const badLimit = await outboxCommand('sqlite::memory:', '--limit', 'many')
    expect(badLimit.code).toBe(1)
    expect(badLimit.stderr).toMatch(/^outbox: --limit must be a whole number from 1 to 1000/)
    const unknown = await outboxCommand('sqlite::memory:', '--limt', '3')
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toMatch(/^outbox: Unknown option '--limt'/)
    const badUrl = await outboxCommand('mysql://root:hunter2@db/news')
    expect(badUrl.code).toBe(1)
    expect(badUrl.stderr).toMatch(/DATABASE_URL must be/)
    expect(badUrl.stderr).not.toContain('hunter2')
  })

  it.skipIf(TEST_POSTGRES_URL === undefined)(
    'reads a PostgreSQL DATABASE_URL too (skipped without TEST_POSTGRES_URL)',
    async () => {
      const store = await postgresSchema(TEST_POSTGRES_URL ?? '').create()
      cleanups.push(() => store.dispose())
      const { url } = store
      const marker = `Reader ${Date.now()}`
      const database = await openDatabase(url)
      try {
        await new SqlOutboxMailer(database).send({
          name: marker,
          email: 'reader@example.com',
          message: 'From PostgreSQL',
        })
      } finally {
        await database.close()
      }
      const { code, stdout } = await outboxCommand(url)
      expect(code).toBe(0)
      expect(stdout).toContain(`From:     ${marker} <reader@example.com>`)
    },
  )
})
