import { randomBytes } from 'node:crypto'
import type { SqlDatabase } from '@/adapters/sql/database'

/** The secrets the site keeps in its database, by name. */
export const SITE_SECRETS = {
  /** The key of the editors' pseudonyms (server/pseudonyms.ts). */
  pseudonymKey: 'pseudonym-key',
} as const

export type SiteSecretName = (typeof SITE_SECRETS)[keyof typeof SITE_SECRETS]

/**
 * The secret named `name`: made at random (32 bytes) the first time any server asks, and then
 * the same for every server on the database. Two servers that start at once both insert; the
 * second insert does nothing, and both read the one that won.
 */
export async function siteSecret(database: SqlDatabase, name: SiteSecretName): Promise<Buffer> {
  const { db } = database
  await db
    .insertInto('site_secret')
    .values({ name, value: randomBytes(32).toString('base64') })
    .onConflict((conflict) => conflict.column('name').doNothing())
    .execute()
  const row = await db
    .selectFrom('site_secret')
    .select('value')
    .where('name', '=', name)
    .executeTakeFirstOrThrow()
  return Buffer.from(row.value, 'base64')
}
