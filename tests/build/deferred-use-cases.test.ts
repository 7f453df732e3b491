import type { UseCases } from '@/application/use-cases'
import { deferredUseCases } from '@/composition/browser/browser.use-cases'
import { createMemoryApp, type MemoryApp } from '../support/memory-app'
import type { Result } from '@/domain/result'

// The browser's entry hands the app use cases whose composition root is a separate chunk;
// these stand in for it with the real use cases on in-memory adapters.
function setup() {
  const app = createMemoryApp()
  let loads = 0
  const useCases = deferredUseCases(async () => {
    loads += 1
    return app.useCases
  })
  return { app, useCases, loads: () => loads }
}

function valueOf<T>(result: Result<T>): T {
  if (!result.ok) throw new Error(`expected a value, got ${result.error.code}`)
  return result.value
}

const draft = { title: 'Harbour reopens', body: 'Boats are back.', author: 'Ada' }

describe('the deferred use cases of the browser entry', () => {
  it('load the composition root on the first call, once for calls made together', async () => {
    const { useCases, loads } = setup()
    expect(loads()).toBe(0)

    const [first, second] = await Promise.all([
      useCases.listNews.execute(),
      useCases.getNewsItem.execute('missing'),
    ])

    expect(first.ok).toBe(true)
    expect(second).toEqual({ ok: false, error: { code: 'NotFound' } })
    await useCases.listTrash.execute()
    expect(loads()).toBe(1)
  })

  it('hand each call, with all its arguments, to the use case of the same name', async () => {
    const { app, useCases }: { app: MemoryApp; useCases: UseCases } = setup()
    const key = { idempotencyKey: 'one-submission' }

    const created = valueOf(await useCases.createNews.execute(draft, key))
    expect(valueOf(await useCases.createNews.execute(draft, key))._id).toBe(created._id)
    const edited = valueOf(
      await useCases.editNews.execute({ id: created._id, changes: { title: 'Harbour shut' } }),
    )
    expect(valueOf(await useCases.getNewsItem.execute(created._id)).title).toBe('Harbour shut')
    const history = valueOf(await useCases.listRevisions.execute(created._id, { limit: 1 }))
    expect(history.items.map((revision) => revision.revision)).toEqual([edited.revision])
    const restored = valueOf(
      await useCases.restoreRevision.execute({ id: created._id, revision: created.revision }),
    )
    expect(restored.title).toBe(draft.title)
    valueOf(await useCases.deleteNews.execute(created._id, { ifRevision: [restored.revision] }))
    expect(valueOf(await useCases.listNews.execute()).items).toEqual([])
    expect(valueOf(await useCases.listTrash.execute()).items.map((item) => item._id)).toEqual([
      created._id,
    ])
    valueOf(await useCases.restoreNews.execute(created._id))
    expect(valueOf(await useCases.listNews.execute({ limit: 5 })).items).toHaveLength(1)
    const found = valueOf(await useCases.searchNews.execute({ q: 'harbour', limit: 5 }))
    expect(found.items.map((item) => item._id)).toEqual([created._id])

    const message = { name: 'Ada', email: 'ada@example.com', message: 'Hello' }
    valueOf(await useCases.sendContactMessage.execute(message))
    expect(app.mailer.sent).toEqual([message])
  })

  it('answer Unavailable when the composition root fails to load, and load it again next time', async () => {
    const app = createMemoryApp()
    const attempts: string[] = []
    const useCases = deferredUseCases(async () => {
      attempts.push('load')
      if (attempts.length === 1) throw new TypeError('Failed to fetch dynamically imported module')
      return app.useCases
    })

    expect(await useCases.listNews.execute()).toEqual({
      ok: false,
      error: { code: 'Unavailable' },
    })
    expect((await useCases.listNews.execute()).ok).toBe(true)
    expect(attempts).toEqual(['load', 'load'])
  })
})
