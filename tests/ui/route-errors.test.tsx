// @vitest-environment jsdom
import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { ComponentType } from 'react'
import { MemoryRouter, Route, Routes } from 'react-router-dom'
import { Layout } from '@/ui/app/layout'
import { lazyScreen } from '@/ui/shared/lazy-screen'
import { PageReloadContext, ScreenBoundary } from '@/ui/shared/screen-error-boundary'

/** What a browser's dynamic import rejects with when the chunk is gone or the network is down. */
const chunkGone = () =>
  Promise.reject(new TypeError('Failed to fetch dynamically imported module: /assets/x.js'))

function Home() {
  return <h1>Home screen</h1>
}

function Broken(): never {
  throw new Error('the screen broke while rendering')
}

/** The app's frame with its routes as routes.tsx puts them: each screen in the boundary. */
function renderRoutes(path: string, screens: Readonly<Record<string, ComponentType>>) {
  const reloads: string[] = []
  const user = userEvent.setup()
  const view = render(
    <PageReloadContext value={() => reloads.push(window.location.href)}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route element={<Layout />}>
            <Route
              index
              element={
                <ScreenBoundary>
                  <Home />
                </ScreenBoundary>
              }
            />
            {Object.entries(screens).map(([route, Screen]) => (
              <Route
                key={route}
                path={route}
                element={
                  <ScreenBoundary>
                    <Screen />
                  </ScreenBoundary>
                }
              />
            ))}
          </Route>
        </Routes>
      </MemoryRouter>
    </PageReloadContext>,
  )
  return { reloads, user, ...view }
}

/** The message inside the normal layout: header, nav and footer are all still there. */
async function expectMessageInLayout(title: string): Promise<HTMLElement> {
  const main = screen.getByRole('main')
  const message = await within(main).findByRole('alert')
  expect(within(message).getByRole('heading', { level: 1 })).toHaveTextContent(title)
  expect(within(message).getByRole('button', { name: 'Reload' })).toBeVisible()
  expect(screen.getByRole('banner')).toBeVisible()
  expect(screen.getByRole('navigation', { name: 'Main' })).toBeVisible()
  expect(screen.getByRole('contentinfo')).toBeVisible()
  return message
}

beforeEach(() => {
  sessionStorage.clear()
  // React reports on the console what a boundary caught; these tests expect it.
  vi.spyOn(console, 'error').mockImplementation(() => undefined)
})

describe('a screen whose code fails to load', () => {
  it('shows a message with Reload inside the layout, never a blank page', async () => {
    renderRoutes('/trash', { trash: lazyScreen(chunkGone) })

    const message = await expectMessageInLayout('This page could not be loaded')
    expect(message).toHaveTextContent('The site may have been updated, or the connection dropped.')
  })

  it('reloads the page by itself once, for a stale deploy, and never again in that tab', async () => {
    const first = renderRoutes('/trash', { trash: lazyScreen(chunkGone) })
    await expectMessageInLayout('This page could not be loaded')
    expect(first.reloads).toHaveLength(1)
    first.unmount()

    // The reloaded page fails again: it stays on the message instead of reloading in a loop.
    const second = renderRoutes('/trash', { trash: lazyScreen(chunkGone) })
    await expectMessageInLayout('This page could not be loaded')
    expect(second.reloads).toHaveLength(0)
  })

  it('reloads when the visitor presses Reload', async () => {
    sessionStorage.setItem('newswire:reloaded-for-code', new Date().toISOString())
    const { reloads, user } = renderRoutes('/trash', { trash: lazyScreen(chunkGone) })
    const message = await expectMessageInLayout('This page could not be loaded')
    expect(reloads).toHaveLength(0)

    await user.click(within(message).getByRole('button', { name: 'Reload' }))

    expect(reloads).toHaveLength(1)
  })

  it('does not reload by itself while the browser is offline', async () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false)
    const { reloads } = renderRoutes('/trash', { trash: lazyScreen(chunkGone) })

    await expectMessageInLayout('This page could not be loaded')
    expect(reloads).toHaveLength(0)
  })

  it('lets a later stale deploy reload once more after code loads again', async () => {
    const failing = renderRoutes('/trash', { trash: lazyScreen(chunkGone) })
    await expectMessageInLayout('This page could not be loaded')
    expect(failing.reloads).toHaveLength(1)
    failing.unmount()

    const loading = renderRoutes('/trash', { trash: lazyScreen(async () => Home) })
    expect(await screen.findByRole('heading', { name: 'Home screen' })).toBeVisible()
    loading.unmount()

    const later = renderRoutes('/contact', { contact: lazyScreen(chunkGone) })
    await expectMessageInLayout('This page could not be loaded')
    expect(later.reloads).toHaveLength(1)
  })

  it('clears the message when the visitor goes elsewhere', async () => {
    const { user } = renderRoutes('/trash', { trash: lazyScreen(chunkGone) })
    await expectMessageInLayout('This page could not be loaded')

    await user.click(screen.getByRole('link', { name: 'Home' }))

    expect(await screen.findByRole('heading', { name: 'Home screen' })).toBeVisible()
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()
  })
})

describe('a screen that fails while rendering', () => {
  it('shows a message with Reload inside the layout, and does not reload by itself', async () => {
    const { reloads, user } = renderRoutes('/broken', { broken: Broken })

    const message = await expectMessageInLayout('Something went wrong on this page')
    expect(reloads).toHaveLength(0)
    await user.click(within(message).getByRole('button', { name: 'Reload' }))
    expect(reloads).toHaveLength(1)
  })

  it('clears the message when the visitor goes elsewhere', async () => {
    const { user } = renderRoutes('/broken', { broken: Broken })
    await expectMessageInLayout('Something went wrong on this page')

    await user.click(screen.getByRole('link', { name: 'Home' }))

    expect(await screen.findByRole('heading', { name: 'Home screen' })).toBeVisible()
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()
  })
})
