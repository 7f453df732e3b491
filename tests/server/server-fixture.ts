import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { brotliCompressSync, gzipSync, constants as zlibConstants } from 'node:zlib'
import type { FastifyInstance, InjectOptions } from 'fastify'
import { JournaledNewsRepository } from '@/application/journaled-news.repository'
import { useCasesFor, type UseCases } from '@/application/use-cases'
import type { NewsItem } from '@/domain/news-item.entity'
import type { Mailer } from '@/domain/ports/mailer.port'
import type { NewsRepository } from '@/domain/ports/news-repository.port'
import { MemoryMailer } from '@/adapters/memory/memory.mailer'
import { MemoryNewsStore } from '@/adapters/memory/memory-news.store'
import {
  composeServer,
  type ComposedServer,
  type ComposeOptions,
} from '@/composition/server/server.composition'
import { readConfig } from '@/composition/server/read-config'
import { buildApp, type BuildAppOptions } from '@/server/app'
import { OUTBOX_IDS, type ServerConfig } from '@/server/services/server-config'
import { type TestStore, type TestStoreKind } from '../support/test-databases'

/** Settings for a test: an in-memory SQLite database, no demo posts, no rate limits. */
export function testConfig(env: Record<string, string> = {}): ServerConfig {
  return readConfig({
    DATABASE_URL: 'sqlite::memory:',
    DEMO_POSTS: '0',
    WRITE_RATE_LIMIT: '0',
    CREATE_RATE_LIMIT: '0',
    SEARCH_RATE_LIMIT: '0',
    ...env,
  })
}

/**
 * The app alone over in-memory use cases (no database, no build), healthy unless told
 * otherwise; anything else it is built with can be overridden.
 */
export function memoryApp(overrides: Partial<BuildAppOptions> = {}): Promise<FastifyInstance> {
  return buildApp({
    useCases: memoryUseCases(),
    config: testConfig(),
    health: async () => true,
    distDir: emptyDistDir(),
    ...overrides,
  })
}

/** The real composition root over a fresh database; close it in afterAll. */
export function composeTestServer(
  env: Record<string, string> = {},
  options: ComposeOptions = {},
): Promise<ComposedServer> {
  return composeServer(testConfig(env), { ...options, distDir: options.distDir ?? emptyDistDir() })
}

/** Use cases over in-memory adapters, for the tests where a database is not the point. */
export function memoryUseCases(
  news: NewsRepository = new JournaledNewsRepository(new MemoryNewsStore()),
  mailer: Mailer = new MemoryMailer(),
): UseCases {
  return useCasesFor({ news, mailer })
}

export {
  describeOnDatabases,
  SHARED_STORE_KINDS as TEST_DATABASES,
  TEST_POSTGRES_URL,
  type TestStore as TestDatabase,
  type TestStoreKind as TestDatabaseKind,
} from '../support/test-databases'

// Every file that builds servers here gets its temporary folders removed after its tests, as
// @testing-library/react cleans up after each test: vitest runs each file's modules afresh.
afterAll(removeTempDirs)

/**
 * What a suite's hooks make (again for each test when `perTest`), to read in its tests: a
 * stand-in that forwards to the thing once it is made, so that the suite can name it at once.
 */
function preparedFor<T extends object>(
  perTest: boolean,
  open: () => Promise<T>,
  close: (made: T) => Promise<void>,
): T {
  let made: T | undefined
  ;(perTest ? beforeEach : beforeAll)(async () => {
    made = await open()
  })
  ;(perTest ? afterEach : afterAll)(async () => {
    const closing = made
    made = undefined
    if (closing !== undefined) await close(closing)
  })
  return standIn(() => made)
}

/** Forwards to what `current` answers, methods bound to it; throws while it answers nothing. */
function standIn<T extends object>(current: () => T | undefined): T {
  const target = (): T => {
    const value = current()
    if (value === undefined) throw new Error('read outside the tests of the suite that set it up')
    return value
  }
  return new Proxy({} as T, {
    get(_, name) {
      const value: unknown = Reflect.get(target(), name)
      return typeof value === 'function' ? value.bind(target()) : value
    },
  })
}

/** A fresh database of `kind` for the suite's tests (for each test when `perTest`). */
export function useDatabase(kind: TestStoreKind, { perTest = false } = {}): TestStore {
  return preparedFor(
    perTest,
    () => kind.create(),
    (made) => made.dispose(),
  )
}

export interface ServerSetup {
  /** Where its posts live; SQLite in memory when absent. */
  readonly database?: { readonly url: string }
  readonly env?: Record<string, string>
  readonly options?: ComposeOptions
  /** A fresh server for each test, rather than one for the suite. */
  readonly perTest?: boolean
}

/** A composed server and its app, for the tests of the suite it is set up in. */
export interface TestServer {
  readonly server: ComposedServer
  readonly app: FastifyInstance
}

/** The real composition root for the suite's tests (each test's when `perTest`), closed after. */
export function useServer({
  database,
  env,
  options,
  perTest = false,
}: ServerSetup = {}): TestServer {
  const server = preparedFor(
    perTest,
    () =>
      composeTestServer(
        { ...(database === undefined ? {} : { DATABASE_URL: database.url }), ...env },
        options,
      ),
    (made) => made.close(),
  )
  return { server, app: standIn(() => server.app) }
}

/** Two servers on one fresh database of `kind`, as behind a load balancer. */
export interface TwoServers {
  readonly database: TestStore
  readonly a: ComposedServer
  readonly b: ComposedServer
}

/** Two servers on one database of `kind` for the suite's tests (each test's when `perTest`). */
export function useTwoServers(
  kind: TestStoreKind,
  setup: Omit<ServerSetup, 'database'> = {},
): TwoServers {
  const database = useDatabase(kind, { perTest: setup.perTest })
  const { server: a } = useServer({ ...setup, database })
  const { server: b } = useServer({ ...setup, database })
  return { database, a, b }
}

export const ASSET_NAME = 'index-B4x9Qm2a.js'
export const ASSET_TEXT = `console.log(${JSON.stringify('NewsWire '.repeat(400))})\n`
/** An asset the build wrote compressed too, as it does every script (vite.config.ts). */
export const PRECOMPRESSED_ASSET_NAME = 'main-Zq81Kd0p.js'
/** Its .gz and .br, made at the fastest settings: what is sent must be these bytes. */
export const PRECOMPRESSED = {
  gzip: gzipSync(ASSET_TEXT, { level: 1 }),
  br: brotliCompressSync(ASSET_TEXT, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 1 } }),
} as const
export const INDEX_HTML =
  '<!doctype html><html><head><script type="module" src="/assets/' +
  ASSET_NAME +
  '"></script></head><body><div id="root"></div></body></html>\n'

const tempDirs: string[] = []

/** A tiny stand-in for vite's dist/: index.html, one hashed asset and a public file. */
export function fakeDistDir(): string {
  const dir = tempDir('newswire-dist-')
  mkdirSync(join(dir, 'assets'))
  writeFileSync(join(dir, 'index.html'), INDEX_HTML)
  writeFileSync(join(dir, 'assets', ASSET_NAME), ASSET_TEXT)
  writeFileSync(join(dir, 'assets', PRECOMPRESSED_ASSET_NAME), ASSET_TEXT)
  writeFileSync(join(dir, 'assets', `${PRECOMPRESSED_ASSET_NAME}.gz`), PRECOMPRESSED.gzip)
  writeFileSync(join(dir, 'assets', `${PRECOMPRESSED_ASSET_NAME}.br`), PRECOMPRESSED.br)
  writeFileSync(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>')
  return dir
}

/** A built app's folder whose index.html is the project's own template: pages are rendered. */
export function templateDistDir(): string {
  const dir = tempDir('newswire-template-')
  mkdirSync(join(dir, 'assets'))
  writeFileSync(join(dir, 'index.html'), readFileSync('index.html', 'utf8'))
  return dir
}

export const distWithPageTemplate = templateDistDir

/** A dist folder without a build, for tests that are not about the app's files. */
export function emptyDistDir(): string {
  return tempDir('newswire-nodist-')
}

export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  tempDirs.push(dir)
  return dir
}

export function removeTempDirs(): void {
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true })
}

/** A pino destination that keeps every log line, to check what the server logs. */
export function logCapture(): { stream: Writable; lines: () => Record<string, unknown>[] } {
  const chunks: string[] = []
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString('utf8'))
      done()
    },
  })
  const lines = () =>
    chunks
      .join('')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>)
  return { stream, lines }
}

/** A multipart body as a browser's FormData would send it. */
export async function multipart(
  fields: Record<string, string>,
): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  const form = new FormData()
  for (const [name, value] of Object.entries(fields)) form.append(name, value)
  const request = new Request('http://localhost/', { method: 'POST', body: form })
  return {
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type') ?? '' },
  }
}

export const PROBLEM_TYPE = 'application/problem+json; charset=utf-8'

/** Checks that `response` is the problem `status` `title` (RFC 9457), with `fields` besides. */
export function expectProblem(
  response: { statusCode: number; headers: Record<string, unknown>; json(): unknown },
  status: number,
  title: string,
  fields: Record<string, unknown> = {},
): void {
  expect(response.statusCode).toBe(status)
  expect(response.headers['content-type']).toBe(PROBLEM_TYPE)
  expect(response.json()).toEqual({
    type: 'about:blank',
    title,
    status,
    detail: expect.any(String),
    ...fields,
  })
}

/**
 * Follows `url`'s Link rel="next" until none is left, each page answering 200; answers every
 * page's items in order, and the Link headers met on the way.
 */
export async function followPages<Item>(
  get: (
    url: string,
  ) => Promise<{ statusCode: number; headers: Record<string, unknown>; json(): unknown }>,
  url: string,
): Promise<{ items: Item[]; links: string[] }> {
  const items: Item[] = []
  const links: string[] = []
  for (let next: string | undefined = url; next !== undefined;) {
    const response = await get(next)
    expect(response.statusCode).toBe(200)
    items.push(...(response.json() as Item[]))
    const link = response.headers.link as string | undefined
    if (link !== undefined) links.push(link)
    next = link?.match(/^<([^>]+)>; rel="next"$/)?.[1]
  }
  return { items, links }
}

export const JSON_HEADERS = { 'content-type': 'application/json' } as const

/** The settings of an EmailJS account, which replaces the built-in outbox. */
export const EMAILJS_ACCOUNT = {
  EMAILJS_SERVICE_ID: 'service_abc',
  EMAILJS_TEMPLATE_ID: 'template_def',
  EMAILJS_PUBLIC_KEY: 'pk_123',
} as const

/** The Origin a page of the site sends: inject's requests come to Host localhost:80. */
export const SITE_ORIGIN = 'http://localhost'

/** Edits a post through the API of a composed server, as a visitor's browser would. */
export function editThroughApi(
  server: { readonly app: FastifyInstance },
  id: string,
  payload: unknown,
  headers: Record<string, string> = {},
) {
  return server.app.inject({
    method: 'PATCH',
    url: `/api/news/${id}`,
    headers: { ...JSON_HEADERS, ...headers },
    payload: payload as object,
  })
}

/** What a test may add to a request it does not otherwise shape. */
type MoreOf = Omit<InjectOptions, 'method' | 'url' | 'payload' | 'headers'> & {
  readonly headers?: Record<string, string | undefined>
}

/** POSTs `payload` (a minimal post unless given) to /api/news as JSON, as the site's form does. */
export function postNews(
  app: FastifyInstance,
  payload: InjectOptions['payload'] = { title: 'T', body: 'B', author: 'A' },
  { headers, ...more }: MoreOf = {},
) {
  return app.inject({
    ...more,
    method: 'POST',
    url: '/api/news',
    headers: { ...JSON_HEADERS, ...headers },
    payload,
  })
}

export const SEND_FORM = '/api/v1.0/email/send-form'

/** What @emailjs/browser 4's sendForm posts for the contact form; a test overrides what it is about. */
export function contactForm(fields: Record<string, string> = {}): Record<string, string> {
  return {
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    message: 'Hello from the contact form.',
    lib_version: '4.4.1',
    service_id: OUTBOX_IDS.serviceId,
    template_id: OUTBOX_IDS.templateId,
    user_id: OUTBOX_IDS.publicKey,
    ...fields,
  }
}

/** Sends a contact form as the site's page does: from its origin, unless `headers` say else. */
export async function sendForm(
  app: FastifyInstance,
  fields: Record<string, string>,
  { headers = { origin: SITE_ORIGIN }, ...more }: MoreOf = {},
) {
  const form = await multipart(fields)
  return app.inject({
    ...more,
    method: 'POST',
    url: SEND_FORM,
    headers: { ...form.headers, ...headers },
    payload: form.payload,
  })
}

/**
 * Publishes a post through the API of a composed server, as a visitor's browser would, then
 * pauses: posts are dated to the millisecond, and the pause keeps 'newest first' unambiguous.
 */
export async function createPostThroughApi(
  server: { readonly app: FastifyInstance },
  title: string,
  { body = `About ${title}.`, author = 'Ada' }: { body?: string; author?: string } = {},
): Promise<NewsItem> {
  const response = await postNews(server.app, { title, body, author })
  expect(response.statusCode).toBe(201)
  await new Promise((resolve) => setTimeout(resolve, 2))
  return response.json<NewsItem>()
}
