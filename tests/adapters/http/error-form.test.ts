import { createActor, waitFor, type InspectionEvent } from 'xstate'
import { HttpNewsRepository } from '@/adapters/http/http-news.repository'
import { MemoryMailer } from '@/adapters/memory/memory.mailer'
import { useCasesFor } from '@/application/use-cases'
import { isDomainError } from '@/domain/domain-error'
import type { NewsChanges } from '@/domain/news-item.entity'
import type { WriteCondition } from '@/domain/rules/news-history.rules'
import { createAppServices } from '@/ui/shared/app-services'
import { provideNewsStore } from '@/ui/store/news-store.provide'
import { startNewsApi, type NewsApiStandIn } from './news-api.stand-in'

// An error takes one form from the HTTP adapter to the screen: the API refuses, the browser's
// adapter reads the problem, and the news store's machine receives that very object.
let api: NewsApiStandIn
let baseUrl: string

beforeAll(async () => {
  api = await startNewsApi()
  baseUrl = api.origin
})

afterAll(async () => {
  await api.close()
})

/** The HTTP adapter, keeping what each refused update rejected with. */
class WatchedRepository extends HttpNewsRepository {
  readonly refusals: unknown[] = []

  override update(id: string, changes: NewsChanges, condition?: WriteCondition) {
    return super.update(id, changes, condition).catch((thrown: unknown) => {
      this.refusals.push(thrown)
      throw thrown
    })
  }
}

describe('an error on its way from the HTTP adapter to the screen', () => {
  it('reaches the news store’s machine as the very DomainError the adapter made', async () => {
    const repository = new WatchedRepository({ baseUrl })
    const useCases = useCasesFor({ news: repository, mailer: new MemoryMailer() })
    const post = await repository.create({ title: 'Tide', body: 'High', author: 'Ada' })
    // Someone else saves meanwhile: the visitor's edit names revision 1, which is stale now.
    const current = await repository.update(post._id, { title: 'Tide turns' })
    const received: unknown[] = []
    const inspect = (inspection: InspectionEvent) => {
      if (inspection.type !== '@xstate.event') return
      const { event } = inspection
      if (event.type.startsWith('xstate.error.actor')) received.push(event.error)
    }
    const services = createAppServices(useCases, { showToast: () => {}, navigate: () => {} })
    const store = createActor(provideNewsStore(services), { input: { news: [post] }, inspect })
    store.start()

    store.send({
      type: 'news.edit',
      id: post._id,
      changes: { title: 'Tidal' },
      condition: { ifRevision: [1] },
    })
    await waitFor(store, (snapshot) => snapshot.context.unsaved[post._id] !== undefined)
    store.stop()

    const [made] = repository.refusals
    expect(made).toEqual({ code: 'Stale', current })
    expect(made).not.toBeInstanceOf(Error)
    expect(isDomainError(made)).toBe(true)
    expect(received).toHaveLength(1)
    expect(received[0]).toBe(made)
  })

  it('is carried as that same object by the use case’s Result, as the server reads it', async () => {
    const repository = new WatchedRepository({ baseUrl })
    const { editNews } = useCasesFor({ news: repository, mailer: new MemoryMailer() })

    const result = await editNews.execute({ id: 'never-existed', changes: { title: 'x' } })

    expect(result).toEqual({ ok: false, error: { code: 'NotFound' } })
    expect(!result.ok && result.error).toBe(repository.refusals[0])
  })
})
