import { readFileSync } from 'node:fs'
import { sql } from 'kysely'
import { migrationNames } from '@/adapters/sql/newswire.migrations'
import {
  composeTestServer,
  EMAILJS_ACCOUNT,
  TEST_DATABASES,
  TEST_POSTGRES_URL,
  memoryApp,
} from './server-fixture'

if (TEST_POSTGRES_URL === undefined) {
  it.skip('PostgreSQL: SKIPPED because TEST_POSTGRES_URL is not set (scripts/ci-postgres.sh)')
}

const PACKAGE_VERSION = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string })
  .version
const [PREVIOUS_MIGRATION, LATEST_MIGRATION] = migrationNames('sqlite').slice(-2)

describe('GET /api/config', () => {
  it('points the SPA at the built-in outbox on its own origin when no EmailJS account is set', async () => {
    const server = await composeTestServer()
    const response = await server.app.inject('/api/config')
    await server.close()
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({
      emailjs: {
        origin: '',
        serviceId: 'newswire_outbox',
        templateId: 'contact_form',
        publicKey: 'newswire-outbox',
      },
    })
  })

  it('hands over the EmailJS account and origin when one is set', async () => {
    const server = await composeTestServer({
      ...EMAILJS_ACCOUNT,
      EMAILJS_ORIGIN: 'https://api.eu.emailjs.com/',
    })
    const response = await server.app.inject('/api/config')
    await server.close()
    expect(response.json()).toEqual({
      emailjs: {
        origin: 'https://api.eu.emailjs.com',
        serviceId: 'service_abc',
        templateId: 'template_def',
        publicKey: 'pk_123',
      },
    })
  })
})

describe('GET /api/health', () => {
  it.each(TEST_DATABASES)(
    'answers 200 on $name with the version, the engine and where the schema stands',
    async (kind) => {
      const database = await kind.create()
      const server = await composeTestServer({ DATABASE_URL: database.url })
      const response = await server.app.inject('/api/health')
      await server.close()
      await database.dispose()
      expect(response.statusCode).toBe(200)
      expect(response.json()).toEqual({
        status: 'ok',
        version: PACKAGE_VERSION,
        engine: kind.name === 'SQLite' ? 'sqlite' : 'postgres',
        schemaVersion: LATEST_MIGRATION,
        migrationsCurrent: true,
      })
      expect(response.headers['cache-control']).toBe('no-store')
    },
  )

  it('says the migrations are not current on a schema behind this server’s', async () => {
    const [sqlite] = TEST_DATABASES
    const database = await sqlite!.create()
    const server = await composeTestServer({ DATABASE_URL: database.url })
    await sql`delete from kysely_migration where name = ${LATEST_MIGRATION ?? ''}`.execute(
      server.database.db,
    )
    const response = await server.app.inject('/api/health')
    await server.close()
    expect(response.json()).toMatchObject({
      schemaVersion: PREVIOUS_MIGRATION,
      migrationsCurrent: false,
    })
  })

  it('answers a 503 problem once the database is gone', async () => {
    const server = await composeTestServer()
    await server.database.close()
    const response = await server.app.inject('/api/health')
    await server.app.close()
    expect(response.statusCode).toBe(503)
    expect(response.headers['content-type']).toBe('application/problem+json; charset=utf-8')
    expect(response.json()).toMatchObject({ status: 503, title: 'Service Unavailable' })
  })

  it('answers 503 when the check fails or hangs', async () => {
    for (const health of [
      async () => Promise.reject(new Error('down')),
      () => new Promise<boolean>(() => undefined),
    ]) {
      const app = await memoryApp({ health })
      const response = await app.inject('/api/health')
      await app.close()
      expect(response.statusCode).toBe(503)
      expect(response.body).not.toContain('down')
    }
  }, 10_000)
})
