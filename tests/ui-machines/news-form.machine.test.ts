import { createActor, fromPromise, waitFor } from 'xstate'
import { unavailable } from '@/domain/domain-error'
import type { NewsItem } from '@/domain/news-item.entity'
import {
  newsFormMachine,
  type CreateRequest,
  type EditParams,
} from '@/ui/features/news-form/news-form.machine'
import type { NavigateParams, ToastParams } from '@/ui/shared/machine-effects'

const post: NewsItem = {
  _id: 'harbour-1',
  title: 'Harbour reopens',
  body: 'Boats are back.',
  author: 'Ada',
  createdAt: '2026-01-01T12:00:00.000Z',
  updatedAt: '2026-01-01T12:00:00.000Z',
  revision: 2,
}
const mine = { title: 'Harbour reopens at dawn', body: 'Boats are back.', author: 'Ada' }

/** The edit form of `post`, its effects recorded, the restore answering with `restore`. */
function startEditForm(restore: () => Promise<NewsItem>) {
  const effects = {
    edits: [] as EditParams[],
    stored: [] as NewsItem[],
    creates: [] as CreateRequest[],
    toasts: [] as ToastParams[],
    navigations: [] as NavigateParams[],
  }
  const actor = createActor(
    newsFormMachine.provide({
      actors: {
        restoreNews: fromPromise<NewsItem, string>(() => restore()),
        createNews: fromPromise<NewsItem, CreateRequest>(async ({ input }) => {
          effects.creates.push(input)
          return { ...post, ...input.draft, _id: 'new-1', revision: 1 }
        }),
      },
      actions: {
        requestEdit: (_, params) => void effects.edits.push(params),
        storeItem: (_, item) => void effects.stored.push(item),
        showToast: (_, params) => void effects.toasts.push(params),
        navigate: (_, params) => void effects.navigations.push(params),
      },
    }),
    {
      input: { id: post._id },
      snapshot: newsFormMachine.resolveState({
        value: 'editing',
        context: {
          id: post._id,
          draft: { title: '', body: '', author: '' },
          idempotencyKey: undefined,
          fieldErrors: {},
        },
      }),
    },
  ).start()
  return { actor, effects }
}

describe('the edit form of a post deleted meanwhile', () => {
  it('restores the post, then saves the edit onto the version the restore made', async () => {
    const restored = { ...post, revision: 4 }
    const { actor, effects } = startEditForm(async () => restored)

    actor.send({ type: 'form.restoreAndSave', values: mine })
    expect(actor.getSnapshot().value).toBe('restoring')
    await waitFor(actor, (snapshot) => snapshot.status === 'done')

    expect(effects.stored).toEqual([restored])
    expect(effects.edits).toEqual([{ id: post._id, changes: mine, condition: { ifRevision: [4] } }])
    expect(effects.navigations).toEqual([{ to: `/news/${post._id}` }])
    expect(effects.toasts).toEqual([])
  })

  it('keeps the text and says so when the post cannot be restored', async () => {
    const { actor, effects } = startEditForm(async () => {
      throw unavailable()
    })

    actor.send({ type: 'form.restoreAndSave', values: mine })
    await waitFor(actor, (snapshot) => snapshot.matches('editing'))

    expect(actor.getSnapshot().context.draft).toEqual(mine)
    expect(effects.edits).toEqual([])
    expect(effects.navigations).toEqual([])
    expect(effects.toasts).toEqual([
      { kind: 'error', message: 'something went wrong while restoring the post, try again later' },
    ])
  })

  it('saves the text as a new post, with a key of its own', async () => {
    const { actor, effects } = startEditForm(async () => post)

    actor.send({ type: 'form.saveAsNew', values: mine, idempotencyKey: 'key-1' })
    await waitFor(actor, (snapshot) => snapshot.status === 'done')

    expect(effects.creates).toEqual([{ draft: mine, idempotencyKey: 'key-1' }])
    expect(effects.edits).toEqual([])
    expect(effects.toasts).toEqual([{ kind: 'success', message: 'successfully added news post' }])
  })

  it('refuses either choice while the text breaks a rule, and says which field', () => {
    const { actor, effects } = startEditForm(async () => post)

    actor.send({ type: 'form.restoreAndSave', values: { ...mine, title: '' } })
    actor.send({ type: 'form.saveAsNew', values: { ...mine, body: '' }, idempotencyKey: 'key-1' })

    expect(actor.getSnapshot().value).toBe('editing')
    expect(Object.keys(actor.getSnapshot().context.fieldErrors)).toEqual(['body'])
    expect(effects.creates).toEqual([])
  })
})
