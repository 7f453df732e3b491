import { createServer } from 'node:net'
import closeWithGrace from 'close-with-grace'
import { composeServer, type ComposedServer } from '@/composition/server/server.composition'
import { describeStartupFailure } from '@/composition/server/startup-errors'
import { ConfigError } from '@/server/services/config-error'
import { readConfig } from '@/composition/server/read-config'
import { usesOutbox, type ServerConfig } from '@/server/services/server-config'
import { loggerOptions } from '@/server/plugins/logging'
import { METRICS_HOST, metricsPortError } from '@/server/routes/metrics.routes'

/**
 * Starts the API and the built app: reads the settings, opens the database (purging the old
 * trash, then hourly), listens, and stops gracefully (close-with-grace): on SIGTERM or SIGINT
 * it stops accepting, finishes the requests in flight, then closes the database. A second
 * signal, or SHUTDOWN_TIMEOUT_MS without having stopped, exits 1 at once; so does an uncaught
 * error, after it is logged and the same close is tried.
 */
const SHUTDOWN_TIMEOUT_MS = 10_000

// React renders pages with its production build unless NODE_ENV says otherwise: the server runs
// the built app, and React's development build is several times slower and warns in the log.
process.env.NODE_ENV ??= 'production'

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
  let graceful: ReturnType<typeof closeWithGrace> | undefined
  try {
    await checkPortFree(config)
    if (config.metricsPort !== undefined) await checkMetricsPortFree(config.metricsPort)
    server = await composeServer(config, { logger: loggerOptions(config.logLevel) })
    graceful = stopGracefully(server)
    await listen(server, config)
  } catch (error) {
    graceful?.uninstall()
    fail(error, config)
    // The database is open once composeServer has answered; close it before leaving.
    await Promise.race([server?.close(), delay(CLOSE_ON_FAILURE_MS)]).catch(() => undefined)
    process.exit(1)
  }
}

function stopGracefully(server: ComposedServer): ReturnType<typeof closeWithGrace> {
  const { log } = server.app
  return closeWithGrace(
    {
      delay: SHUTDOWN_TIMEOUT_MS,
      logger: log,
      onSecondSignal: (signal) => log.warn({ signal }, 'second signal: stopping at once'),
      onSecondError: (error) =>
        log.error({ err: error }, 'second uncaught error: stopping at once'),
      onTimeout: (ms) => log.error({ ms }, 'shutdown took too long; stopping at once'),
    },
    async ({ signal, err }) => {
      if (err !== undefined) log.error({ err }, 'uncaught error: shutting down')
      else log.info({ signal }, 'shutting down: finishing the requests in flight')
      await server.close()
      log.info('stopped')
    },
  )
}

async function listen(server: ComposedServer, config: ServerConfig): Promise<void> {
  const { app, database } = server
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

/**
 * Fails as listening would when the port is taken (or may not be bound), before the database is
 * opened, migrated or purged: a second start by mistake changes nothing.
 */
async function checkPortFree({ host, port }: Pick<ServerConfig, 'host' | 'port'>): Promise<void> {
  if (port === 0) return
  const probe = createServer()
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject)
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()))
  })
}

/** As checkPortFree, for METRICS_PORT, with an error that names it. */
async function checkMetricsPortFree(port: number): Promise<void> {
  try {
    await checkPortFree({ host: METRICS_HOST, port })
  } catch (error) {
    throw metricsPortError(port, error)
  }
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
