import { JournaledNewsRepository } from '@/application/journaled-news.repository'
import { MemoryNewsStore } from '@/adapters/memory/memory-news.store'
import { notFound, rateLimited, unavailable } from '@/domain/domain-error'
import { faulty } from './faulty-port'
import { newsItem } from './news-item'

const draft = { title: 'T', body: 'B', author: 'A' }
const news = () => faulty(new JournaledNewsRepository(new MemoryNewsStore()))

describe('a faulty port', () => {
  it('answers as the adapter does until told otherwise, and records each call', async () => {
    const port = news()
    const created = await port.create(draft)
    expect(await port.get(created._id)).toEqual(created)
    expect(port.faults.calls.map((call) => [call.operation, call.args.length])).toEqual([
      ['create', 1],
      ['get', 1],
    ])
  })

  it('fails the chosen operations as Unavailable, or with the given error, until recover', async () => {
    const port = news()
    port.faults.failOn('list')
    port.faults.failWith(rateLimited(7), 'create')
    await expect(port.list({})).rejects.toEqual(unavailable())
    await expect(port.create(draft)).rejects.toEqual(rateLimited(7))
    expect((await port.trash({})).items).toEqual([])
    port.faults.recover()
    expect((await port.list({})).items).toEqual([])
  })

  it('holds every call until released, then lets it fail if failing by then', async () => {
    const port = news()
    const release = port.faults.hold()
    let settled = false
    const listed = port.list({}).finally(() => (settled = true))
    await new Promise((resolve) => setTimeout(resolve, 10))
    expect(settled).toBe(false)
    port.faults.failOn('list')
    release()
    await expect(listed).rejects.toEqual(unavailable())
  })

  it('loses the next answer of an operation after the adapter acted', async () => {
    const port = news()
    port.faults.loseNextAnswer('create')
    await expect(port.create(draft)).rejects.toEqual(unavailable())
    expect((await port.list({})).items).toHaveLength(1)
    expect((await port.create(draft)).title).toBe('T')
  })

  it('leaves scripted calls to the test, which answers the newest or the oldest', async () => {
    const port = news()
    port.faults.script('get')
    const first = port.get('a')
    const second = port.get('b')
    expect(port.faults.pending('get').map((call) => call.args)).toEqual([['a'], ['b']])
    port.faults.answer('get', { ok: true, value: newsItem({ _id: 'b' }) })
    port.faults.answer('get', { ok: false, error: notFound() }, 'oldest')
    await expect(second).resolves.toMatchObject({ _id: 'b' })
    await expect(first).rejects.toEqual(notFound())
    expect(port.faults.pending()).toEqual([])
    expect((await port.list({})).items).toEqual([])
  })

  it('lets a spy put on it see every call, failing ones too, with the faults applied once', async () => {
    const port = news()
    port.faults.failOn('list')
    const list = vi.spyOn(port, 'list')
    await expect(port.list({})).rejects.toEqual(unavailable())
    port.faults.recover()
    await port.list({})
    expect(list).toHaveBeenCalledTimes(2)
    expect(port.faults.calls.map((call) => call.operation)).toEqual(['list', 'list'])
  })
})
