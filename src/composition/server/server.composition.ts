import type { FastifyBaseLogger, FastifyInstance, FastifyServerOptions } from 'fastify'
import type { Container } from 'inversify'
import { JournaledNewsRepository } from '@/application/journaled-news.repository'
import type { PurgeReport } from '@/domain/ports/news-store.port'
import { openDatabase, type SqlDatabase } from '@/adapters/sql/database'
import { SITE_SECRETS, siteSecret } from '@/adapters/sql/site-secrets'
import { addDemoPostsIfEmpty } from '@/adapters/sql/demo-posts'
import { schemaState } from '@/adapters/sql/newswire.migrations'
import { SqlRateLimitStore } from '@/adapters/sql/sql-rate-limit.store'
import { SqlModerationStore } from '@/adapters/sql/moderation.store'
import { SqlSitemapSource } from '@/adapters/sql/sitemap-blocks'
import {
  buildServerContainer,
  closeServerContainer,
  resolveChangeSignal,
  resolveJournal,
  resolveLiveStream,
  resolveUseCases,
} from '@/composition/server/server.container'
import { loadPageRenderer } from '@/composition/server/page-renderer.loader'
import { TOKENS } from '@/composition/server/server.tokens'
import { buildApp, DEFAULT_DIST_DIR, metricsFor } from '@/server/app'
import { pseudonymizer, withClientPrivacy } from '@/server/services/pseudonyms'
import type { ServerConfig } from '@/server/services/server-config'
import type { EventStreamSettings } from '@/server/services/event-stream'
import type { PageRenderer } from '@/server/services/page-renderer'
import type { DatabaseHealth } from '@/server/services/health'

/** How often the trash and the idempotency keys are purged while the server runs. */
export const PURGE_EVERY_MS = 60 * 60 * 1000

export interface ComposeOptions {
  /** Fastify's logger option; off unless given. */
  readonly logger?: FastifyServerOptions['logger']
  /** The built single-page app; defaults to `<repo>/dist`. */
  readonly distDir?: string
  /**
   * The app's server entry, which renders pages; by default the one built beside `distDir`,
   * when there is one (page-renderer.loader.ts). Tests hand in the source's.
   */
  readonly renderer?: PageRenderer
  /** The purge's clock, so that a test can stand TRASH_DAYS in the future; the real one if unset. */
  readonly now?: () => Date
  /** How often to purge after the purge at start; PURGE_EVERY_MS unless given. */
  readonly purgeEveryMs?: number
  /** The live streams' heartbeat, polling and caps; the app's defaults unless given (tests). */
  readonly events?: Partial<EventStreamSettings>
  /** How many posts a sitemap file covers; the protocol's 50,000 unless given (tests). */
  readonly sitemapFilePosts?: number
}

export interface ComposedServer {
  readonly app: FastifyInstance
  readonly database: SqlDatabase
  readonly container: Container
  /**
   * Purges now what the schedule would: posts trashed more than TRASH_DAYS ago with their
   * histories, and expired idempotency keys. Logs and answers what it removed; never rejects.
   */
  purge(): Promise<PurgeReport>
  /** Stops the purge schedule, finishes the requests in flight (app.close()), then closes the database. */
  close(): Promise<void>
}

/**
 * The server's composition root, part 3: opens the database DATABASE_URL names, binds the
 * ports to the SQL adapters, adds the demo posts to an empty store, hands the use cases, the
 * settings and a health check to the app (which never chooses an adapter), and purges the
 * trash once at start and then every hour.
 */
export async function composeServer(
  config: ServerConfig,
  options: ComposeOptions = {},
): Promise<ComposedServer> {
  // Created first, so that the database reports every statement to it from the first.
  const metrics = metricsFor(config)
  const database = await openDatabase(config.database, {
    onStatement: metrics.enabled ? metrics.statement : undefined,
  })
  try {
    // The app's logger exists only once the app does; storage failures before that are rare.
    let logStorageError = (_error: unknown): void => undefined
    const container = buildServerContainer(database, {
      onStorageError: (error) => logStorageError(error),
    })
    await addDemoPostsIfEmpty(container.get(TOKENS.newsRepository), config.demoPosts)
    // Every server of the database names a client by the same pseudonym: in its logs, and as the
    // editor of its writes.
    const pseudonymOf = pseudonymizer(await siteSecret(database, SITE_SECRETS.pseudonymKey))
    const moderation = new SqlModerationStore(database, (error) => logStorageError(error))
    const app = await buildApp({
      useCases: resolveUseCases(container),
      config,
      health: () => databaseHealth(database),
      metrics,
      changeSignal: resolveChangeSignal(container),
      // GET /api/events: the change log's reads, and its streams counted per client in the
      // database, so that the cap holds across servers.
      ...resolveLiveStream(container),
      events: options.events,
      // The write limit counts in the database, so that N servers share one budget per client.
      rateLimitCounter: new SqlRateLimitStore(database, {
        onError: (error) => logStorageError(error),
      }),
      distDir: options.distDir,
      renderer: options.renderer ?? (await loadPageRenderer(options.distDir ?? DEFAULT_DIST_DIR)),
      logger: withClientPrivacy(options.logger, pseudonymOf, config.logAddresses),
      pseudonymOf,
      // The operator's blocks, read on each write from the database every server shares.
      blocks: (editor, address) => moderation.blockOn(editor, address, new Date()),
      // The sitemap reads the counts the database keeps per block of posts, never every post.
      sitemapSource: new SqlSitemapSource(database.db, (error) => logStorageError(error)),
      sitemapFilePosts: options.sitemapFilePosts,
    })
    logStorageError = (error) => app.log.error({ err: error }, 'storage failed')

    const journal =
      options.now === undefined
        ? resolveJournal(container)
        : new JournaledNewsRepository(container.get(TOKENS.newsStore), { now: options.now })
    const schedule = purgeSchedule(journal, config.trashDays, app.log)
    await schedule.run()
    schedule.start(options.purgeEveryMs ?? PURGE_EVERY_MS)

    return {
      app,
      database,
      container,
      purge: () => schedule.run(),
      async close() {
        try {
          await schedule.stop()
          await app.close()
        } finally {
          await closeServerContainer(container).finally(() => database.close())
        }
      },
    }
  } catch (error) {
    await database.close()
    throw error
  }
}

/** GET /api/health's view of the database: false while it does not answer. */
async function databaseHealth(database: SqlDatabase): Promise<false | DatabaseHealth> {
  if (!(await database.ping())) return false
  const schema = await schemaState(database.db, database.engine)
  return {
    engine: database.engine,
    schemaVersion: schema.version,
    migrationsCurrent: schema.current,
  }
}

export const PURGE_LOG_MESSAGE = 'purged old trash and expired idempotency keys'

const NOTHING_PURGED: PurgeReport = { posts: 0, keys: 0 }

/**
 * Runs the purge on a timer that never keeps the process alive, one run at a time. A failed
 * run is logged and retried at the next tick: the trash only waits a little longer.
 */
function purgeSchedule(
  journal: JournaledNewsRepository,
  trashDays: number,
  log: FastifyBaseLogger,
) {
  let timer: NodeJS.Timeout | undefined
  let running: Promise<PurgeReport> | undefined
  let stopped = false

  const purgeOnce = async (): Promise<PurgeReport> => {
    try {
      const report = await journal.purge(trashDays)
      // `posts`: trashed more than `trashDays` ago, gone with their histories; `keys`: expired.
      log.info({ posts: report.posts, keys: report.keys, trashDays }, PURGE_LOG_MESSAGE)
      return report
    } catch (error) {
      log.error({ err: error }, 'purge failed')
      return NOTHING_PURGED
    }
  }

  const run = (): Promise<PurgeReport> => {
    if (stopped) return Promise.resolve(NOTHING_PURGED)
    running ??= purgeOnce().finally(() => {
      running = undefined
    })
    return running
  }

  return {
    run,
    start(everyMs: number) {
      timer = setInterval(() => void run(), everyMs)
      timer.unref()
    },
    /** No further runs; waits for one in progress, so that the database can close after it. */
    async stop() {
      stopped = true
      clearInterval(timer)
      await running
    },
  }
}
