import { createRequire } from 'node:module'

/** The parts of autocannon's result the benchmarks print. */
export interface AutocannonResult {
  readonly requests: { readonly average: number; readonly total: number }
  readonly latency: {
    readonly p50: number
    readonly p99: number
    readonly average: number
  }
  readonly non2xx: number
  readonly errors: number
  readonly timeouts: number
  /** How many answers had each status code. */
  readonly statusCodeStats: Readonly<Record<string, { readonly count: number }>>
}

/** One request of a sequence each connection repeats. */
export interface AutocannonRequest {
  readonly method: 'GET' | 'POST'
  readonly path: string
  readonly headers?: Record<string, string>
  readonly body?: string
  /** Called before each sending: may change the request (e.g. walk many URLs). */
  readonly setupRequest?: (request: { path: string }) => { path: string }
  /** Called with each answer, e.g. to check its body. */
  readonly onResponse?: (status: number, body: string) => void
}

export interface AutocannonOptions {
  readonly url: string
  readonly connections: number
  readonly duration: number
  readonly pipelining?: number
  /** Sent with every request (a request's own headers replace them). */
  readonly headers?: Record<string, string>
  readonly requests?: readonly AutocannonRequest[]
}

// autocannon ships CommonJS without types.
const require = createRequire(import.meta.url)

/** Runs autocannon: a load from this process over loopback, for `duration` seconds. */
export const autocannon = require('autocannon') as (
  options: AutocannonOptions,
) => Promise<AutocannonResult>

/** One request that asks for the next of `paths` at each sending, round and round. */
export function walking(paths: readonly string[]): AutocannonRequest[] {
  let next = 0
  return [
    {
      method: 'GET',
      path: paths[0] ?? '/',
      setupRequest: (request) => {
        const path = paths[next % paths.length] ?? '/'
        next += 1
        return { ...request, path }
      },
    },
  ]
}
