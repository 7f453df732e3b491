import type { FastifyRequest } from 'fastify'

/**
 * The site's absolute origin for links that leave the page (canonical links, feeds, sitemaps,
 * previews, the outbox's Origin check): PUBLIC_URL's when set, or else the request's own scheme
 * and Host. X-Forwarded-Proto and X-Forwarded-Host count only from a proxy TRUST_PROXY names,
 * because Fastify reads them only then.
 */
export function siteOrigin(request: FastifyRequest, publicOrigin: string | undefined): string {
  return publicOrigin ?? originOf(`${request.protocol}://${request.host}`) ?? 'http://localhost'
}

/** An origin as the URL standard serialises it (no default port), or undefined for `null` or junk. */
export function originOf(value: string | undefined): string | undefined {
  if (value === undefined || !URL.canParse(value)) return undefined
  const { origin } = new URL(value)
  return origin === 'null' ? undefined : origin
}
