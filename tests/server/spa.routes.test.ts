import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import {
  ASSET_NAME,
  ASSET_TEXT,
  INDEX_HTML,
  JSON_HEADERS,
  PRECOMPRESSED,
  PRECOMPRESSED_ASSET_NAME,
  fakeDistDir,
  useServer,
} from './server-fixture'

const { app } = useServer({ options: { distDir: fakeDistDir() } })

describe('the built app', () => {
  it('serves index.html at / with no-cache', async () => {
    const response = await app.inject('/')
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(response.headers['cache-control']).toBe('no-cache')
    expect(response.body).toBe(INDEX_HTML)
    expect(response.headers['content-security-policy']).toContain("script-src 'self'")
  })

  it.each(['/news/abc123', '/news/abc123/edit', '/news/new', '/contact', '/no/such/page'])(
    'serves index.html for the deep link %s',
    async (path) => {
      const response = await app.inject(path)
      expect(response.statusCode).toBe(200)
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8')
      expect(response.headers['cache-control']).toBe('no-cache')
      expect(response.body).toBe(INDEX_HTML)
    },
  )

  it('answers HEAD for a deep link', async () => {
    const response = await app.inject({ method: 'HEAD', url: '/news/abc123' })
    expect(response.statusCode).toBe(200)
    expect(response.body).toBe('')
  })

  it('serves hashed assets as immutable for a year', async () => {
    const response = await app.inject(`/assets/${ASSET_NAME}`)
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toMatch(/^text\/javascript|^application\/javascript/)
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    expect(response.body).toBe(ASSET_TEXT)
  })

  it('revalidates unhashed public files', async () => {
    const response = await app.inject('/favicon.svg')
    expect(response.statusCode).toBe(200)
    expect(response.headers['cache-control']).toBe('no-cache')
  })

  it('compresses an asset with brotli, or gzip when brotli is not accepted', async () => {
    const br = await app.inject({
      url: `/assets/${ASSET_NAME}`,
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    })
    expect(br.headers['content-encoding']).toBe('br')
    expect(br.headers.vary).toMatch(/accept-encoding/i)
    expect(brotliDecompressSync(br.rawPayload).toString('utf8')).toBe(ASSET_TEXT)
    expect(br.rawPayload.length).toBeLessThan(ASSET_TEXT.length / 4)

    const gzip = await app.inject({
      url: `/assets/${ASSET_NAME}`,
      headers: { 'accept-encoding': 'gzip' },
    })
    expect(gzip.headers['content-encoding']).toBe('gzip')
    expect(gunzipSync(gzip.rawPayload).toString('utf8')).toBe(ASSET_TEXT)
  })

  it("sends the build's own .br or .gz of an asset, byte for byte, as the browser accepts", async () => {
    const url = `/assets/${PRECOMPRESSED_ASSET_NAME}`
    for (const [accepted, encoding, sent] of [
      ['gzip, deflate, br', 'br', PRECOMPRESSED.br],
      ['gzip', 'gzip', PRECOMPRESSED.gzip],
    ] as const) {
      const response = await app.inject({ url, headers: { 'accept-encoding': accepted } })
      expect(response.statusCode).toBe(200)
      expect(response.headers['content-encoding']).toBe(encoding)
      expect(response.headers['content-type']).toMatch(/javascript/)
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable')
      expect(response.headers.vary).toMatch(/accept-encoding/i)
      expect(response.rawPayload.equals(sent)).toBe(true)
    }
    const plain = await app.inject({ url, headers: { 'accept-encoding': 'identity' } })
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(plain.body).toBe(ASSET_TEXT)
  })

  it('answers 404 for a missing asset instead of the app', async () => {
    for (const path of ['/assets/missing-abc.js', '/missing.txt']) {
      const response = await app.inject(path)
      expect(response.statusCode).toBe(404)
      expect(response.headers['content-type']).toBe('application/problem+json; charset=utf-8')
    }
  })

  it('answers a 404 problem, not the app, for an unknown /api path', async () => {
    const response = await app.inject('/api/news/x/y')
    expect(response.statusCode).toBe(404)
    expect(response.json()).toMatchObject({ status: 404 })
  })

  it('does not serve the app to other methods', async () => {
    const response = await app.inject({ method: 'POST', url: '/contact' })
    expect(response.statusCode).toBe(404)
  })
})

describe('compression of the API', () => {
  it('sends the cached first page compressed, byte for byte the same JSON', async () => {
    for (let i = 0; i < 10; i += 1) {
      await app.inject({
        method: 'POST',
        url: '/api/news',
        headers: JSON_HEADERS,
        payload: {
          title: `Post ${i}`,
          body: 'A body long enough to compress. '.repeat(8),
          author: 'A',
        },
      })
    }
    const plain = await app.inject('/api/news')
    expect(plain.headers['content-encoding']).toBeUndefined()

    for (const [encoding, decode] of [
      ['br', brotliDecompressSync],
      ['gzip', gunzipSync],
    ] as const) {
      const response = await app.inject({
        url: '/api/news',
        headers: { 'accept-encoding': encoding },
      })
      expect(response.headers['content-encoding']).toBe(encoding)
      expect(response.headers.vary).toMatch(/accept-encoding/i)
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8')
      expect(decode(response.rawPayload).toString('utf8')).toBe(plain.body)
    }
  })

  it('honours q=0 for brotli', async () => {
    const response = await app.inject({
      url: '/api/news',
      headers: { 'accept-encoding': 'br;q=0, gzip' },
    })
    expect(response.headers['content-encoding']).toBe('gzip')
  })

  it.each([
    ['gzip, deflate, br', 'br'],
    ['gzip;q=1, br;q=0.5', 'gzip'],
    ['*', 'br'],
    ['br;q=0, gzip;q=0', undefined],
    ['identity', undefined],
    ['deflate', undefined],
  ])('answers Accept-Encoding %j with the cached page in %s', async (header, encoding) => {
    const response = await app.inject({ url: '/api/news', headers: { 'accept-encoding': header } })
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-encoding']).toBe(encoding)
    expect(response.headers.vary).toBe('accept-encoding')
  })
})
