import { readFileSync } from 'node:fs'
import { join } from 'node:path'

/** The version in `folder`'s package.json, which GET /api/health reports; `unknown` if unreadable. */
export function readVersion(folder: string): string {
  try {
    const { version } = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as {
      version?: unknown
    }
    return typeof version === 'string' ? version : 'unknown'
  } catch {
    return 'unknown'
  }
}
