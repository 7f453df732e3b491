/**
 * The project's server for `npm run bench:api`: the real composition root and app, with request
 * logs off so that the figure measures the server, not the terminal. Prints {"port":N} when
 * it listens. Settings come from the environment, as for `npm start`.
 */
import { composeServer } from '@/composition/server/server.composition'
import { readConfig } from '@/composition/server/read-config'

const server = await composeServer(readConfig(process.env), { logger: false })
await server.app.listen({ port: 0, host: '127.0.0.1' })
const address = server.app.server.address()
process.stdout.write(
  `${JSON.stringify({ port: typeof address === 'object' ? address?.port : 0 })}\n`,
)

process.on('SIGTERM', () => {
  void server.close().then(() => process.exit(0))
})
