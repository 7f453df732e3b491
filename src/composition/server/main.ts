import { composeServer, type ComposedServer } from '@/composition/server/server.composition'
import { describeStartupFailure } from '@/composition/server/startup-errors'
import { ConfigError, readConfig, usesOutbox, type ServerConfig } from '@/server/config'

/**
 * Starts the API and the built app: reads the settings, opens the database (purging the old
 * trash, then hourly), listens, and on SIGTERM or SIGINT finishes the requests in flight
 * before closing the database.
 */
const SHUTDOWN_TIMEOUT_MS = 10_000

async function main(): Promise<void> {
  let config: ServerConfig
  try {
    config = readConfig(process.env)
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error
    // One line per bad variable, so that an operator fixes them all at once.
    const [only, ...more] = error.problems
    if (only !== undefined && more.length === 0) console.error(`NewsWire could not start: ${only}`)
    else console.error(error.message)
    process.exitCode = 1
    return
  }

  let server: ComposedServer | undefined
  try {
    server = await composeServer(config, { logger: { level: 'info' } })
    await serve(server, config)
  } catch (error) {
    fail(error, config)
    // The database is open once composeServer has answered; close it before leaving.
    await Promise.race([server?.close(), delay(CLOSE_ON_FAILURE_MS)]).catch(() => undefined)
    process.exit(1)
  }
}

async function serve(server: ComposedServer, config: ServerConfig): Promise<void> {
  const { app, database } = server
  let stopping = false
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) {
      app.log.warn({ signal }, 'second signal: stopping at once')
      process.exit(1)
    }
    stopping = true
    app.log.info({ signal }, 'shutting down: finishing the requests in flight')
    const deadline = setTimeout(() => {
      app.log.error('shutdown took too long; stopping at once')
      process.exit(1)
    }, SHUTDOWN_TIMEOUT_MS)
    server.close().then(
      () => {
        clearTimeout(deadline)
        app.log.info('stopped')
        process.exit(0)
      },
      (error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed')
        process.exit(1)
      },
    )
  }
  process.on('SIGTERM', stop)
  process.on('SIGINT', stop)

  await app.listen({ port: config.port, host: config.host })
  const address = app.server.address()
  const port = typeof address === 'object' && address !== null ? address.port : config.port
  app.log.info(
    {
      url: `http://${config.host}:${port}`,
      port,
      database: database.description,
      mail: usesOutbox(config) ? 'built-in outbox' : 'EmailJS',
      trashDays: config.trashDays,
    },
    `NewsWire listening on http://${config.host}:${port}`,
  )
}

/** How long a failed start may spend closing what it opened before it exits anyway. */
const CLOSE_ON_FAILURE_MS = 2_000

/**
 * Prints what to fix in one or two lines. The stack helps only those who work on NewsWire
 * itself, so it is printed when DEBUG is set.
 */
function fail(error: unknown, target: Pick<ServerConfig, 'host' | 'port'>): void {
  for (const line of describeStartupFailure(error, target)) console.error(line)
  if (process.env.DEBUG) console.error(error)
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref())
}

main().catch((error: unknown) => {
  fail(error, { host: process.env.HOST ?? '', port: Number(process.env.PORT) })
  process.exit(1)
})
