import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { SqlOutboxMailer } from '@/adapters/outbox/sql-outbox.mailer'
import { openDatabase } from '@/adapters/sql/database'
import { temporaryPostgresSchema, TEST_POSTGRES_URL } from './outbox-test-stores'

const run = promisify(execFile)
// Each run starts tsx in a new process: a second or more on a busy machine.
const CLI_TIMEOUT = 30_000
const root = resolve(import.meta.dirname, '..', '..', '..')
const tsx = join(root, 'node_modules', '.bin', 'tsx')

async function outboxCommand(databaseUrl: string, ...args: string[]) {
  try {
    const { stdout, stderr } = await run(tsx, ['scripts/outbox.ts', ...args], {
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

  it('says the outbox is empty, and creates no database, when there is none yet', async () => {
    const path = join(folder, 'missing', 'newswire.db')
    const { code, stdout } = await outboxCommand(`sqlite:${path}`)
    expect(code).toBe(0)
    expect(stdout).toMatch(/The outbox is empty/)
    expect(existsSync(path)).toBe(false)
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
    expect(badLimit.code).toBe(2)
    expect(badLimit.stderr).toContain('--limit')
    const badUrl = await outboxCommand('mysql://root:hunter2@db/news')
    expect(badUrl.code).toBe(1)
    expect(badUrl.stderr).toMatch(/DATABASE_URL must be/)
    expect(badUrl.stderr).not.toContain('hunter2')
  })

  it.skipIf(TEST_POSTGRES_URL === undefined)(
    'reads a PostgreSQL DATABASE_URL too (skipped without TEST_POSTGRES_URL)',
    async () => {
      const store = await temporaryPostgresSchema(TEST_POSTGRES_URL ?? '')
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
