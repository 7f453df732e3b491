import type { ServiceIdentifier } from 'inversify'
import type { SqlDatabase } from '@/adapters/sql/database'
import type { StorageErrorListener } from '@/adapters/sql/storage-failure'
import { PORTS } from '@/composition/core.module'

/** The server container's service identifiers: the shared ports, and what the SQL adapters need. */
export const TOKENS = {
  ...PORTS,
  database: Symbol.for('newswire.server.SqlDatabase') as ServiceIdentifier<SqlDatabase>,
  storageErrors: Symbol.for(
    'newswire.server.StorageErrorListener',
  ) as ServiceIdentifier<StorageErrorListener>,
} as const
