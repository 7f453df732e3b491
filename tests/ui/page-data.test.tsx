// @vitest-environment jsdom
import { act, render, screen } from '@testing-library/react'
import { lazy, Suspense, useState } from 'react'
import { AppServicesContext, usePageData } from '@/ui/shared/app-context'
import type { AppServices } from '@/ui/shared/app-services'
import { pageDataClaims } from '@/ui/shared/page-data'
import { newsItem } from './support/render-app'

const HOME = { items: [newsItem({ _id: 'n-1' }), newsItem({ _id: 'n-2' })] }

/** A screen that starts from the first page the server rendered, or says it loads. */
function ListScreen() {
  const home = usePageData((pageData) => pageData.home())
  return <p>{home === undefined ? 'Loading' : `${home.items.length} posts from the page`}</p>
}

function Site({ code }: { readonly code: Promise<void> }) {
  const [services] = useState(() => ({ pageData: pageDataClaims({ home: HOME }) }) as AppServices)
  // Code that has not arrived yet: the first render of its boundary is thrown away.
  const [WaitsFor] = useState(() => lazy(() => code.then(() => ({ default: () => null }))))
  const [visits, setVisits] = useState(1)
  return (
    <AppServicesContext value={services}>
      <button type="button" onClick={() => setVisits((count) => count + 1)}>
        Visit again
      </button>
      <Suspense fallback={<p>Waiting for code</p>}>
        <ListScreen key={visits} />
        <WaitsFor />
      </Suspense>
    </AppServicesContext>
  )
}

describe('the page data a screen starts from', () => {
  it('is still there when React renders the screen again after throwing a render away', async () => {
    let arrive = () => undefined as void
    const code = new Promise<void>((resolve) => (arrive = resolve))
    render(<Site code={code} />)
    expect(screen.getByText('Waiting for code')).toBeInTheDocument()

    await act(async () => arrive())

    expect(screen.getByText('2 posts from the page')).toBeInTheDocument()
  })

  it('is gone once a screen has mounted with it, so a later visit loads', async () => {
    render(<Site code={Promise.resolve()} />)
    expect(await screen.findByText('2 posts from the page')).toBeInTheDocument()

    await act(async () => screen.getByRole('button', { name: 'Visit again' }).click())

    expect(screen.getByText('Loading')).toBeInTheDocument()
  })
})
