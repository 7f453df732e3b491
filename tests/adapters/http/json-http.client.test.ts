import { JsonHttpClient } from '@/adapters/http/json-http.client'

describe('JsonHttpClient', () => {
  it('asks the browser to revalidate every read, so a cached list never hides a write', async () => {
    const calls: RequestInit[] = []
    const client = new JsonHttpClient({
      baseUrl: 'http://news.test',
      fetch: async (_url, init) => {
        calls.push(init ?? {})
        return new Response('[]', { headers: { 'content-type': 'application/json' } })
      },
    })
    await client.send(client.url('/api/news'))
    await client.send(client.url('/api/news'), { method: 'POST', json: { title: 'T' } })
    expect(calls.map((init) => init.cache)).toEqual(['no-cache', 'no-cache'])
  })
})
