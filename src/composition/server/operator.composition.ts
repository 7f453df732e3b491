import { OperatorTools } from '@/application/operator-tools'
import { RollbackEditor } from '@/application/rollback-editor.use-case'
import type { UndoChangesSince } from '@/application/undo-changes.use-case'
import type { UseCases } from '@/application/use-cases'
import { OPERATOR } from '@/domain/editor'
import { openDatabase, type SqlDatabase } from '@/adapters/sql/database'
import { SqlModerationStore } from '@/adapters/sql/moderation.store'
import { SITE_SECRETS, siteSecret } from '@/adapters/sql/site-secrets'
import {
  buildServerContainer,
  resolveUndoChangesSince,
  resolveUseCases,
} from '@/composition/server/server.container'
import { TOKENS } from '@/composition/server/server.tokens'
import { pseudonymizer, type Pseudonymizer } from '@/server/services/pseudonyms'
import type { ServerConfig } from '@/server/services/server-config'

/*
 * The operator's composition root, apart from the server's: `npm run news` loads the database,
 * the store and the use cases, and not Fastify, its plugins or the metrics, which took a second
 * of every command's start.
 */

export interface ComposedOperator {
  readonly useCases: UseCases
  readonly undoChangesSince: UndoChangesSince
  readonly rollbackEditor: RollbackEditor
  readonly tools: OperatorTools
  /** A client address's pseudonym, as the servers of this database name it. */
  readonly pseudonymOf: Pseudonymizer
  readonly database: SqlDatabase
  close(): Promise<void>
}

/**
 * The operator's composition (`npm run news`): the same database, store, journal and use cases
 * as the server, without HTTP, demo posts or the purge schedule; `operator` names whoever runs
 * the commands in the operator log.
 */
export async function composeOperator(
  config: ServerConfig,
  operator: string = OPERATOR,
): Promise<ComposedOperator> {
  const database = await openDatabase(config.database)
  try {
    const container = buildServerContainer(database)
    return {
      useCases: resolveUseCases(container),
      undoChangesSince: resolveUndoChangesSince(container),
      rollbackEditor: new RollbackEditor(
        container.get(TOKENS.newsStore),
        container.get(TOKENS.journal),
      ),
      tools: new OperatorTools(new SqlModerationStore(database), { operator }),
      pseudonymOf: pseudonymizer(await siteSecret(database, SITE_SECRETS.pseudonymKey)),
      database,
      close: () => database.close(),
    }
  } catch (error) {
    await database.close()
    throw error
  }
}
