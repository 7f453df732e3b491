import type { FastifyInstance, FastifyServerOptions } from 'fastify'
import type { Container } from 'inversify'
import { openDatabase, type SqlDatabase } from '@/adapters/sql/database'
import { addDemoPostsIfEmpty } from '@/adapters/sql/demo-posts'
import { buildServerContainer, resolveUseCases } from '@/composition/server/server.container'
import { TOKENS } from '@/composition/server/server.tokens'
import { buildApp } from '@/server/app'
import type { ServerConfig } from '@/server/config'

export interface ComposeOptions {
  /** Fastify's logger option; off unless given. */
  readonly logger?: FastifyServerOptions['logger']
  /** The built single-page app; defaults to `<repo>/dist`. */
  readonly distDir?: string
}

export interface ComposedServer {
  readonly app: FastifyInstance
  readonly database: SqlDatabase
  readonly container: Container
  /** Finishes the requests in flight (app.close()), then closes the database. */
  close(): Promise<void>
}

/**
 * The server's composition root, part 3: opens the database DATABASE_URL names, binds the
 * ports to the SQL adapters, adds the demo posts to an empty store, and hands the use cases,
 * the settings and a health check to the app, which never chooses an adapter.
 */
export async function composeServer(
  config: ServerConfig,
  options: ComposeOptions = {},
): Promise<ComposedServer> {
  const database = await openDatabase(config.databaseUrl)
  try {
    // The app's logger exists only once the app does; storage failures before that are rare.
    let logStorageError = (_error: unknown): void => undefined
    const container = buildServerContainer(database, {
      onStorageError: (error) => logStorageError(error),
    })
    await addDemoPostsIfEmpty(container.get(TOKENS.newsRepository), config.demoPosts)
    const app = await buildApp({
      useCases: resolveUseCases(container),
      config,
      health: () => database.ping(),
      distDir: options.distDir,
      logger: options.logger,
    })
    logStorageError = (error) => app.log.error({ err: error }, 'storage failed')
    return {
      app,
      database,
      container,
      async close() {
        try {
          await app.close()
        } finally {
          await database.close()
        }
      },
    }
  } catch (error) {
    await database.close()
    throw error
  }
}
