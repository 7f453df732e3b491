/**
 * The ceiling for `npm run bench:api`: a bare node:http server that answers every request with
 * the exact status, headers and bytes of our first page, read from the JSON file named by its
 * argument. Prints {"port":N} when it listens.
 */
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'

interface Recorded {
  readonly status: number
  readonly headers: readonly (readonly [string, string])[]
  readonly body: string
}

const recorded = JSON.parse(readFileSync(process.argv[2] ?? '', 'utf8')) as Recorded
const body = Buffer.from(recorded.body, 'base64')
// Node adds Date, Connection and Keep-Alive itself, as it does for Fastify.
const headers = recorded.headers.filter(
  ([name]) => !['date', 'connection', 'keep-alive', 'transfer-encoding'].includes(name),
)
const flat = headers.flatMap(([name, value]) => [name, value])

const server = createServer((_request, response) => {
  response.writeHead(recorded.status, flat)
  response.end(body)
})
server.keepAliveTimeout = 72_000
server.listen(0, '127.0.0.1', () => {
  const address = server.address()
  process.stdout.write(
    `${JSON.stringify({ port: typeof address === 'object' ? address?.port : 0 })}\n`,
  )
})
process.on('SIGTERM', () => server.close(() => process.exit(0)))
