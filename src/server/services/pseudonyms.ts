import { createHmac } from 'node:crypto'
import { normalizeIP } from '@fastify/rate-limit'
import type { FastifyRequest, FastifyServerOptions } from 'fastify'
import { PSEUDONYM_LENGTH, UNKNOWN_EDITOR } from '@/domain/editor'

export { PSEUDONYM_LENGTH }

/**
 * A client address's pseudonym. A request whose socket has closed may have no address left
 * (Node forgets it): then the answer is UNKNOWN_EDITOR, never an error.
 */
export type Pseudonymizer = (address: string | undefined) => string

/**
 * Pseudonyms keyed by the site's secret (adapters/sql/site-secrets.ts): an HMAC-SHA256 of the
 * address as the budgets count it (IPv4 whole, IPv6 by its /64), cut to PSEUDONYM_LENGTH hex
 * digits. The same address gives the same pseudonym on every server of the site, and nothing of
 * the address can be read back from it without the key, which never leaves the database.
 */
export function pseudonymizer(key: Buffer): Pseudonymizer {
  return (address) =>
    address === undefined || address === ''
      ? UNKNOWN_EDITOR
      : createHmac('sha256', key)
          .update(normalizeIP(address))
          .digest('hex')
          .slice(0, PSEUDONYM_LENGTH)
}

/**
 * The logger's options with the request's client written as its pseudonym (`client`), or as
 * the address itself (`remoteAddress`, with the port) when the operator asked for addresses
 * (LOG_ADDRESSES).
 */
export function withClientPrivacy(
  logger: FastifyServerOptions['logger'],
  pseudonymOf: Pseudonymizer,
  logAddresses: boolean,
): FastifyServerOptions['logger'] {
  if (logger === undefined || logger === false) return logger
  const options = logger === true ? {} : logger
  return {
    ...options,
    serializers: {
      ...options.serializers,
      req: (request: FastifyRequest) => ({
        method: request.method,
        url: request.url,
        host: request.host,
        // Read once the answer has gone, when the socket may be closed and its address gone: a
        // serializer that threw would take the process down with it.
        ...(logAddresses
          ? { remoteAddress: request.ip, remotePort: request.socket?.remotePort }
          : { client: pseudonymOf(request.ip) }),
      }),
    },
  }
}
