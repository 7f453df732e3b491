import { DatabaseOpenError } from '@/adapters/sql/database-open-error'

/** Where the server was asked to listen, for messages about the port or the host. */
export interface ListenTarget {
  readonly host: string
  readonly port: number
}

/**
 * The one or two lines an operator reads when the server cannot start: what is wrong, naming
 * the port, host or path, and then what to change. Faults we know are said in plain words;
 * anything else is its message on one line. The stack is left out: it points into NewsWire,
 * while the fix is in the operator's settings.
 */
export function describeStartupFailure(error: unknown, target: ListenTarget): readonly string[] {
  const prefix = 'NewsWire could not start:'
  if (error instanceof DatabaseOpenError) return [`${prefix} ${error.message}.`, error.fix]
  const { host, port } = target
  switch (listenErrorCode(error)) {
    case 'EADDRINUSE':
      return [
        `${prefix} port ${port} on ${host} is already in use.`,
        'Stop the program using it, or set PORT to a free port (for example PORT=3001).',
      ]
    case 'EACCES':
      return [
        `${prefix} this user may not listen on port ${port} on ${host}.`,
        'Set PORT to a port above 1023, or give the server the right to bind low ports.',
      ]
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NONAME':
      return [
        `${prefix} HOST ${host} does not resolve to an address.`,
        'Set HOST to a name or address of this machine, such as localhost, 127.0.0.1 or 0.0.0.0.',
      ]
    case 'EADDRNOTAVAIL':
      return [
        `${prefix} HOST ${host} is not an address of this machine.`,
        'Set HOST to one of its addresses, such as 127.0.0.1, or 0.0.0.0 for all of them.',
      ]
    default:
      return [`${prefix} ${oneLine(error)}`]
  }
}

/** The code of a failure to resolve HOST or to bind the socket; undefined for anything else. */
function listenErrorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined
  const { code, syscall } = error as { code?: unknown; syscall?: unknown }
  const listening = syscall === 'listen' || syscall === 'bind' || syscall === 'getaddrinfo'
  return listening && typeof code === 'string' ? code : undefined
}

function oneLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  return message.replace(/\s*\n\s*/g, ' ').trim() || String(error)
}
