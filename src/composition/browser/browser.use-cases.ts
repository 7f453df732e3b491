/**
 * The use cases the browser's entry hands the app. They are stand-ins that load the composition
 * root (inversify, the HTTP adapters and their wire schemas) as a separate chunk on the first
 * call, so the first visit to a server-rendered page downloads none of it: that page needs no
 * use case until the visitor scrolls, writes, or the news store acts.
 */
import { lazily } from '@/application/lazily'
import type { UseCases } from '@/application/use-cases'
import type { BrowserOptions } from '@/composition/browser/browser.container'
import { unavailable } from '@/domain/domain-error'
import { fail, type Result } from '@/domain/result'

/** The browser's use cases, wired by its container once one of them is first called. */
export function browserUseCases(options: BrowserOptions): UseCases {
  return deferredUseCases(async () => {
    const { resolveBrowserUseCases } = await import('@/composition/browser/browser.container')
    return resolveBrowserUseCases(options)
  })
}

/** What the screens call on a use case: its `execute`, and nothing else. */
type Executor = { readonly execute: (...args: never[]) => Promise<Result<unknown>> }

/**
 * Use cases that get the real ones from `load` on their first call and hand every call to them.
 * A load that fails (the chunk did not arrive) answers Unavailable, as a failed request does,
 * and is tried again on the next call. Each use case is made on first use, by name, so a use
 * case added to the app needs nothing here.
 */
export function deferredUseCases(load: () => Promise<UseCases>): UseCases {
  const loaded = lazily(load)
  const run = async (name: string, args: unknown[]): Promise<Result<unknown>> => {
    let useCases: UseCases
    try {
      useCases = await loaded()
    } catch {
      return fail(unavailable())
    }
    const real = (useCases as unknown as Record<string, Executor>)[name]
    return (real?.execute as (...args: unknown[]) => Promise<Result<unknown>>)(...args)
  }
  const made = new Map<string, Executor>()
  const executorOf = (name: string): Executor => {
    let executor = made.get(name)
    if (executor === undefined) {
      executor = { execute: (...args: unknown[]) => run(name, args) }
      made.set(name, executor)
    }
    return executor
  }
  // The use cases are classes whose private ports make their types nominal; callers see only
  // `execute`, which each executor has with the same signature.
  // Not a promise: `then` (and any symbol) is no use case.
  return new Proxy(
    {},
    {
      get: (_, name) =>
        typeof name === 'string' && name !== 'then' ? executorOf(name) : undefined,
    },
  ) as UseCases
}
