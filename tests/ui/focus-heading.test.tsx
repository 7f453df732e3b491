// @vitest-environment jsdom
import { act, render, screen } from '@testing-library/react'
import { useEffect, useState } from 'react'
import { MemoryRouter, Route, Routes, useNavigate, type NavigateFunction } from 'react-router-dom'
import { HOLDS_FOCUS, useFocusHeadingOnNavigation } from '@/ui/shared/use-focus-heading'

/** A screen whose heading comes with its data, a moment after it opens. */
function LoadingScreen({ show }: { readonly show: Promise<void> }) {
  const [loaded, setLoaded] = useState(false)
  useEffect(() => void show.then(() => setLoaded(true)), [show])
  return loaded ? <h1>Latest news</h1> : <p>Loading…</p>
}

function Site({
  show,
  onNavigate,
  outcome,
}: {
  readonly show: Promise<void>
  readonly onNavigate: (navigate: NavigateFunction) => void
  readonly outcome: Record<string, string>
}) {
  const main = useFocusHeadingOnNavigation()
  const navigate = useNavigate()
  useEffect(() => {
    onNavigate(navigate)
  }, [navigate, onNavigate])
  return (
    <>
      <span tabIndex={-1} {...outcome}>
        successfully deleted news post
      </span>
      <main ref={main}>
        <Routes>
          <Route path="/" element={<LoadingScreen show={show} />} />
          <Route path="/news/1" element={<h1>Harbour report</h1>} />
        </Routes>
      </main>
    </>
  )
}

/** Focuses the outcome, then goes home, whose heading shows once its data is there. */
async function deleteAndGoHome(outcome: Record<string, string>): Promise<void> {
  let loaded = () => {}
  const show = new Promise<void>((resolve) => (loaded = resolve))
  let navigate: NavigateFunction = () => {}
  render(
    <MemoryRouter initialEntries={['/news/1']}>
      <Site show={show} onNavigate={(given) => (navigate = given)} outcome={outcome} />
    </MemoryRouter>,
  )
  screen.getByText('successfully deleted news post').focus()
  await act(async () => navigate('/'))
  await act(async () => loaded())
  await screen.findByRole('heading', { name: 'Latest news' })
}

describe('the focus after a navigation', () => {
  it('goes to the new screen’s heading once it shows', async () => {
    await deleteAndGoHome({})

    expect(screen.getByRole('heading', { name: 'Latest news' })).toHaveFocus()
  })

  it('stays on a toast that took it to tell the outcome, when the heading shows after', async () => {
    await deleteAndGoHome({ [HOLDS_FOCUS]: '' })

    expect(screen.getByText('successfully deleted news post')).toHaveFocus()
  })
})
