// @vitest-environment jsdom
import { fireEvent, render, screen } from '@testing-library/react'
import type { ReactNode } from 'react'
import { MemoryRouter, useLocation, useNavigationType } from 'react-router-dom'
import { Link, NavLink, SiteLinks } from '@/ui/shared/links'

function Address() {
  const { pathname, search } = useLocation()
  return (
    <>
      <output aria-label="address">{pathname + search}</output>
      <output aria-label="last navigation">{useNavigationType()}</output>
    </>
  )
}

function renderAt(path: string, links: ReactNode) {
  render(
    <MemoryRouter initialEntries={[path]}>
      <SiteLinks>{links}</SiteLinks>
      <Address />
    </MemoryRouter>,
  )
  return {
    address: () => screen.getByRole('status', { name: 'address' }).textContent,
    lastNavigation: () => screen.getByRole('status', { name: 'last navigation' }).textContent,
  }
}

describe("the app's links", () => {
  it('point at their path and go there in place on a plain click', () => {
    const { address } = renderAt('/', <Link to="/trash?cursor=2">Recently deleted</Link>)
    const link = screen.getByRole('link', { name: 'Recently deleted' })
    expect(link).toHaveAttribute('href', '/trash?cursor=2')

    expect(fireEvent.click(link)).toBe(false)
    expect(address()).toBe('/trash?cursor=2')
  })

  it('replace the entry of the address already shown rather than add one, as the router’s do', () => {
    const { address, lastNavigation } = renderAt(
      '/trash',
      <Link to="/trash">Recently deleted</Link>,
    )
    fireEvent.click(screen.getByRole('link', { name: 'Recently deleted' }))
    expect(address()).toBe('/trash')
    expect(lastNavigation()).toBe('REPLACE')

    fireEvent.click(screen.getByRole('link', { name: 'Recently deleted' }))
    expect(lastNavigation()).toBe('REPLACE')
  })

  it('add an entry for another address', () => {
    const { lastNavigation } = renderAt('/', <Link to="/trash">Recently deleted</Link>)
    fireEvent.click(screen.getByRole('link', { name: 'Recently deleted' }))
    expect(lastNavigation()).toBe('PUSH')
  })

  it.each([
    ['a new tab', { ctrlKey: true }],
    ['a new window', { shiftKey: true }],
    ['the middle button', { button: 1 }],
  ])('leave a click for %s to the browser', (_name, click) => {
    const { address } = renderAt('/', <Link to="/contact">Contact</Link>)

    expect(fireEvent.click(screen.getByRole('link', { name: 'Contact' }), click)).toBe(true)
    expect(address()).toBe('/')
  })

  it("run the link's own click handler first, which may keep the page", () => {
    const { address } = renderAt(
      '/',
      <Link to="/contact" onClick={(event) => event.preventDefault()}>
        Contact
      </Link>,
    )

    fireEvent.click(screen.getByRole('link', { name: 'Contact' }))
    expect(address()).toBe('/')
  })

  it.each(['/contact', '/Contact'])(
    'mark the nav link of the page at %s as the current page',
    (path) => {
      renderAt(path, <NavLink to="/contact">Contact</NavLink>)

      const link = screen.getByRole('link', { name: 'Contact' })
      expect(link).toHaveAttribute('aria-current', 'page')
      expect(link).toHaveClass('active')
    },
  )

  it.each(['/', '/contact/sent', '/news/new'])(
    'leave the nav link of /contact unmarked at %s',
    (path) => {
      renderAt(path, <NavLink to="/contact">Contact</NavLink>)

      const link = screen.getByRole('link', { name: 'Contact' })
      expect(link).not.toHaveAttribute('aria-current')
      expect(link).not.toHaveClass('active')
    },
  )
})
