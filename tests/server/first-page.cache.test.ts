import {
  FirstPageCache,
  preferredEncoding,
  serialisedPage,
} from '@/server/services/first-page.cache'

describe('preferredEncoding', () => {
  it.each([
    [undefined, undefined],
    ['', undefined],
    ['identity', undefined],
    ['deflate', undefined],
    ['gzip', 'gzip'],
    ['br', 'br'],
    ['gzip, deflate, br', 'br'],
    ['GZIP, BR', 'br'],
    ['*', 'br'],
    ['br;q=0, gzip', 'gzip'],
    ['gzip;q=0, br', 'br'],
    ['br;q=0, gzip;q=0', undefined],
    ['*;q=0, identity', undefined],
    ['gzip;q=1, br;q=0.5', 'gzip'],
    ['gzip;q=0.8, br;q=0.8', 'br'],
  ])('answers %j with %s', (header, encoding) => {
    expect(preferredEncoding(header)).toBe(encoding)
  })

  it('answers alike however many distinct headers it has seen', () => {
    for (let i = 0; i < 500; i += 1) preferredEncoding(`x-${i}, gzip`)
    expect(preferredEncoding('x-1, gzip')).toBe('gzip')
    expect(preferredEncoding('br;q=0, gzip')).toBe('gzip')
  })
})

describe('FirstPageCache', () => {
  it('serves a page only at the version it was read at', () => {
    const cache = new FirstPageCache({ version: async () => 1 })
    const page = serialisedPage('[]', undefined)
    cache.store(3, page)
    expect(cache.get(3)).toBe(page)
    expect(cache.get(4)).toBeUndefined()
  })

  it('compresses the cached page once per encoding, and only the cached page', () => {
    const cache = new FirstPageCache({ version: async () => 1 })
    const page = serialisedPage(JSON.stringify(Array.from({ length: 50 }, (_, i) => i)), undefined)
    cache.store(1, page)
    const br = cache.encoded(page, 'br')
    expect(br).toBeInstanceOf(Buffer)
    expect(cache.encoded(page, 'br')).toBe(br)
    expect(cache.encoded(serialisedPage(page.body, undefined), 'br')).toBeUndefined()
  })

  it('has no version, so nothing is served from memory, without a change signal or while it fails', async () => {
    expect(await new FirstPageCache(undefined).version()).toBeUndefined()
    const failing = new FirstPageCache({ version: () => Promise.reject(new Error('down')) })
    expect(await failing.version()).toBeUndefined()
    expect(await new FirstPageCache({ version: async () => 7 }).version()).toBe(7)
  })
})
