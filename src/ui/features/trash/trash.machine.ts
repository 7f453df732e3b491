import { assertEvent, assign, setup } from 'xstate'
import type { TrashedNewsItem } from '@/domain/news-item.entity'
import type { NewsPageQuery, TrashPage } from '@/domain/ports/news-repository.port'
import { effectStubs, stubUseCase } from '@/ui/shared/machine-effects'
import { restoreImplementations, restoreState } from '@/ui/shared/item-machine.fragment'
import {
  pagedImplementations,
  pagedStates,
  type WithContext,
} from '@/ui/shared/paged-list.fragment'
import { mergeItems } from '@/ui/store/news-store.logic'

/** A post that came back from the trash: what the page needs for a link to it. */
export interface RestoredPost {
  readonly id: string
  readonly title: string
}

export interface TrashContext {
  /** The page the trash starts at (the address's `?cursor=`); undefined for the first. */
  readonly start?: string
  /** The trashed posts shown, newest deletion first. */
  readonly items: readonly TrashedNewsItem[]
  /** The token of the next page, while more remain. */
  readonly next: string | undefined
  /** The id of the post being restored. */
  readonly restoring: string | undefined
  /** The post restored last, so that the page can link to it. */
  readonly restored: RestoredPost | undefined
}

export type TrashEvent =
  | { readonly type: 'trash.retry' }
  | { readonly type: 'trash.loadMore' }
  | { readonly type: 'trash.restore'; readonly id: string }

type Step = WithContext<TrashContext>

function without(context: TrashContext): Partial<TrashContext> {
  const post = context.items.find((item) => item._id === context.restoring)
  return {
    items: context.items.filter((item) => item._id !== context.restoring),
    restoring: undefined,
    restored: post === undefined ? context.restored : { id: post._id, title: post.title },
  }
}

/**
 * Recently deleted: loads the first page of the trash (or the page its address names) when it
 * opens, further pages on request, and restores one post at a time. A post that is already back (restored elsewhere) leaves the
 * list as if restored here; one purged meanwhile leaves it with its own notice.
 */
export const trashMachine = setup({
  types: {
    context: {} as TrashContext,
    events: {} as TrashEvent,
    input: {} as { readonly cursor?: string } | undefined,
  },
  actors: {
    listTrash: stubUseCase<TrashPage, NewsPageQuery>(),
    ...restoreImplementations.actors,
  },
  actions: {
    ...effectStubs,
    showPage: assign((_, page: TrashPage) => ({ items: page.items, next: page.next })),
    addPage: assign(({ context }, page: TrashPage) => ({
      items: mergeItems(context.items, page.items),
      next: page.next,
    })),
    noteRestoring: assign({
      restoring: ({ event }) => {
        assertEvent(event, 'trash.restore')
        return event.id
      },
    }),
    /** The post left the trash (restored, here or elsewhere): off the list, linked above it. */
    takeOffList: assign(({ context }) => without(context)),
    /** The post was purged: off the list, and nothing to link to. */
    dropFromList: assign(({ context }) => ({ ...without(context), restored: context.restored })),
    forgetRestoring: assign({ restoring: undefined }),
  },
  guards: {
    ...pagedImplementations.guards,
    ...restoreImplementations.guards,
    isListed: ({ context, event }) => {
      assertEvent(event, 'trash.restore')
      return context.items.some((item) => item._id === event.id)
    },
  },
}).createMachine({
  id: 'trash',
  context: ({ input }) => ({
    start: input?.cursor,
    items: [],
    next: undefined,
    restoring: undefined,
    restored: undefined,
  }),
  initial: 'loading',
  states: {
    ...pagedStates({
      src: 'listTrash',
      events: 'trash',
      first: ({ context }: Step) => (context.start === undefined ? {} : { cursor: context.start }),
      more: ({ context }: Step) => ({ cursor: context.next }),
      whileShown: {
        'trash.restore': { guard: 'isListed', target: 'restoring', actions: 'noteRestoring' },
      },
    }),
    restoring: restoreState({
      input: ({ context }: Step) => context.restoring ?? '',
      restored: { target: 'ready', actions: ['takeOffList'] },
      backAlready: { target: 'ready', actions: ['takeOffList'] },
      purged: { target: 'ready', actions: ['dropFromList'] },
      failed: { target: 'ready', actions: ['forgetRestoring'] },
    }),
  },
})
