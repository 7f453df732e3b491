import { composeServer } from '@/composition/server/server.composition'
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
    console.error(error.message)
    process.exitCode = 1
    return
  }

  const server = await composeServer(config, { logger: { level: 'info' } })
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

main().catch((error: unknown) => {
  console.error('NewsWire could not start:', error)
  process.exit(1)
})
