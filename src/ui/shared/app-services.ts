import type { UseCases } from '@/application/use-cases'
import { pageDataClaims, type PageData, type PageDataClaims } from '@/ui/shared/page-data'
import type { DraftStorage } from '@/ui/shared/draft-storage'
import type { NavigateParams, ToastParams } from '@/ui/shared/machine-effects'

export interface AppEffects {
  readonly showToast: (params: ToastParams) => void
  readonly navigate: (params: NavigateParams) => void
}

/**
 * What every screen's machine is provided with: the use cases and the effects. The news store
 * is not among them: it is React context (`NewsStore`, src/ui/store/news-store.ts).
 */
export interface AppServices {
  readonly useCases: UseCases
  /**
   * Where the forms keep drafts, a storage effect; undefined: the browser's local storage,
   * which the forms open with draftsOf.
   */
  readonly drafts: DraftStorage | undefined
  /**
   * The server's page data, which the first screen takes instead of fetching it: it is read
   * once, as the screens first render, so it travels with the services rather than in a store.
   */
  readonly pageData: PageDataClaims
  /** The toast and navigation effects, as machine action implementations. */
  readonly edge: {
    readonly showToast: (_: unknown, params: ToastParams) => void
    readonly navigate: (_: unknown, params: NavigateParams) => void
  }
}

/** Builds the services a screen's machine is provided with. */
export function createAppServices(
  useCases: UseCases,
  effects: AppEffects,
  drafts?: DraftStorage,
  pageData?: PageData,
): AppServices {
  return {
    useCases,
    drafts,
    pageData: pageDataClaims(pageData),
    edge: {
      showToast: (_, params) => effects.showToast(params),
      navigate: (_, params) => effects.navigate(params),
    },
  }
}
