import type { UseCases } from '@/application/use-cases'
import { pageDataClaims, type PageData, type PageDataClaims } from '@/ui/shared/page-data'
import type { DraftStorage } from '@/ui/shared/draft-storage'
import type { NavigateParams, ToastParams } from '@/ui/shared/machine-effects'

export interface AppEffects {
  readonly showToast: (params: ToastParams) => void
  readonly navigate: (params: NavigateParams) => void
}

export interface AppServicesOptions {
  /** Where the forms keep drafts; by default the browser's local storage (see draftsOf). */
  readonly drafts?: DraftStorage
  /** What the server rendered the page with: the first screen starts from it. */
  readonly pageData?: PageData
}

/**
 * What the app's machines are provided with: the use cases and the effects at the edge. The
 * news store is not here: it lives in its own context (src/ui/store/news-store.provider.tsx).
 */
export interface AppServices {
  readonly useCases: UseCases
  /** Undefined: the browser's local storage, which the forms open with draftsOf. */
  readonly drafts: DraftStorage | undefined
  /** The server's page data, which the first screen takes instead of fetching it. */
  readonly pageData: PageDataClaims
  /** The toast and navigation effects, as machine action implementations. */
  readonly edge: {
    readonly showToast: (_: unknown, params: ToastParams) => void
    readonly navigate: (_: unknown, params: NavigateParams) => void
  }
}

export function createAppServices(
  useCases: UseCases,
  effects: AppEffects,
  { drafts, pageData }: AppServicesOptions = {},
): AppServices {
  return {
    useCases,
    drafts,
    pageData: pageDataClaims(pageData),
    edge: {
      showToast: (_: unknown, params: ToastParams) => effects.showToast(params),
      navigate: (_: unknown, params: NavigateParams) => effects.navigate(params),
    },
  }
}
