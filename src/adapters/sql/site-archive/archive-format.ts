import type { Engine } from '@/application/database-target'

/**
 * A site archive's first and last lines (docs/export-format.md). The body between them is one
 * ArchiveRecord a line. A reader refuses a format or a version it does not know, and a file
 * that stops before its last line.
 */

export const ARCHIVE_FORMAT = 'newswire-site'
/** Raised when a line's meaning changes; a new table or column in a new migration raises it too. */
export const ARCHIVE_VERSION = 1

export interface ArchiveHeader {
  readonly format: typeof ARCHIVE_FORMAT
  readonly version: number
  /** The engine it was exported from; for information. */
  readonly engine: Engine
  /** The newest migration of the database it was exported from. */
  readonly schema: string
  readonly exportedAt: string
  /** Whether it holds the contact messages (`--with-outbox`). */
  readonly outbox: boolean
}

/**
 * The last line: how many rows of each table the body holds, to tell a file cut short, and
 * their digests (site-digest.ts), to check a database loaded from it.
 */
export interface ArchiveEnd {
  readonly end: {
    readonly counts: Readonly<Record<string, number>>
    readonly sha256: Readonly<Record<string, string>>
  }
}

/** A fault in an archive or its target that the operator fixes: one line, exit status 1. */
export class ArchiveError extends Error {
  override readonly name = 'ArchiveError'
}

/** The database to load into holds a site already: nothing was written to it. */
export class TargetNotEmptyError extends ArchiveError {}

export function parseHeader(line: string | undefined, newestSchema: string): ArchiveHeader {
  const header = parseLine(line, 1) as Partial<ArchiveHeader> | undefined
  if (header?.format !== ARCHIVE_FORMAT) {
    throw new ArchiveError(`this is not a NewsWire site archive (no "format":"${ARCHIVE_FORMAT}")`)
  }
  if (header.version !== ARCHIVE_VERSION) {
    throw new ArchiveError(
      `the archive is in format version ${JSON.stringify(header.version)}; ` +
        `this NewsWire reads version ${ARCHIVE_VERSION}`,
    )
  }
  if (typeof header.schema !== 'string' || header.schema > newestSchema) {
    throw new ArchiveError(
      `the archive comes from a newer NewsWire (schema ${JSON.stringify(header.schema)}); ` +
        `this one knows up to ${newestSchema}: upgrade it first`,
    )
  }
  return header as ArchiveHeader
}

/** A line of JSON, or an ArchiveError naming its number. */
export function parseLine(line: string | undefined, number: number): unknown {
  try {
    return JSON.parse(line ?? '')
  } catch {
    throw new ArchiveError(`line ${number} of the archive is not JSON`)
  }
}
