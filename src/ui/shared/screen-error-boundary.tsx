import { Component, createContext, Suspense, useContext, useEffect, type ReactNode } from 'react'
import { useLocation } from 'react-router-dom'
import { claimAutomaticReload, CodeLoadError } from '@/ui/shared/lazy-screen'

/** Reloads the page; tests provide their own. */
export const PageReloadContext = createContext<() => void>(() => window.location.reload())

type Failure = 'code' | 'render'

interface BoundaryProps {
  readonly children: ReactNode
  /** The boundary forgets a failure when this changes: the visitor went elsewhere. */
  readonly resetKey: string
  readonly reload: () => void
}

interface BoundaryState {
  readonly failure: Failure | undefined
}

/** Catches what a screen throws while it loads its code or renders. */
class ScreenErrorBoundary extends Component<BoundaryProps, BoundaryState> {
  override state: BoundaryState = { failure: undefined }

  static getDerivedStateFromError(error: unknown): BoundaryState {
    return { failure: error instanceof CodeLoadError ? 'code' : 'render' }
  }

  override componentDidCatch(error: unknown): void {
    // After a redeploy the old chunks are gone; the page loaded anew asks for the new ones.
    if (error instanceof CodeLoadError && claimAutomaticReload()) this.props.reload()
  }

  override componentDidUpdate(previous: BoundaryProps): void {
    if (previous.resetKey !== this.props.resetKey && this.state.failure !== undefined) {
      this.setState({ failure: undefined })
    }
  }

  override render(): ReactNode {
    const { failure } = this.state
    if (failure === undefined) return this.props.children
    return <ScreenFailed failure={failure} onReload={this.props.reload} />
  }
}

const MESSAGES: Record<Failure, { readonly title: string; readonly detail: string }> = {
  code: {
    title: 'This page could not be loaded',
    detail: 'The site may have been updated, or the connection dropped. Reload to try again.',
  },
  render: {
    title: 'Something went wrong on this page',
    detail: 'Reload to try again.',
  },
}

/** Shown inside the layout in place of a screen that failed: what happened, and Reload. */
function ScreenFailed({
  failure,
  onReload,
}: {
  readonly failure: Failure
  readonly onReload: () => void
}) {
  const { title, detail } = MESSAGES[failure]
  return (
    <div className="inline-error screen-failed" role="alert">
      <MarkRunning />
      <h1>{title}</h1>
      <p>{detail}</p>
      <button type="button" className="button" onClick={onReload}>
        Reload
      </button>
    </div>
  )
}

/**
 * Marks the page as run by the app (`<html data-app="running">`) once the route's screen has
 * rendered or hydrated, or failed. A screen whose code arrives after the app's hydrates after
 * the rest of the page, and until then it is the server's plain HTML: what is typed or pressed
 * in it reaches no handler. Tests wait for the mark.
 */
function MarkRunning() {
  useEffect(() => {
    document.documentElement.dataset.app = 'running'
  }, [])
  return null
}

/**
 * Every route's screen sits inside this: its code loads behind a Suspense fallback, and a
 * failure to load or render shows a message with Reload inside the layout, never a blank
 * page. Navigating elsewhere clears the message.
 */
export function ScreenBoundary({ children }: { readonly children: ReactNode }) {
  const { pathname } = useLocation()
  const reload = useContext(PageReloadContext)
  return (
    <ScreenErrorBoundary resetKey={pathname} reload={reload}>
      <Suspense fallback={<p role="status">Loading…</p>}>
        {children}
        <MarkRunning />
      </Suspense>
    </ScreenErrorBoundary>
  )
}
