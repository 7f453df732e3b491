import { createContext, useContext, useMemo, type ComponentProps, type ReactNode } from 'react'
import { useLocation, useNavigate, type NavigateFunction } from 'react-router-dom'

/*
 * The app's links. React Router's <Link> and <NavLink> carry framework mode's prefetching of route
 * modules and data, whose code (2.5 KB of gzip) every first visit downloaded and the app never
 * runs; and each of them resolves its path and builds its own navigate function with five of the
 * router's hooks, which a page of 24 cards paid for on every render on the server. The app's
 * links are absolute paths within the site, so their href is their path, and the frame of every
 * page (SiteLinks) hands them one navigate function and the current address.
 */

interface SiteNavigation {
  readonly navigate: NavigateFunction
  /** The current address: its path, and its path with query and fragment. */
  readonly pathname: string
  readonly address: string
}

const SiteNavigationContext = createContext<SiteNavigation | undefined>(undefined)

/** Gives the links below it the router's navigate function and the current address. */
export function SiteLinks({ children }: { readonly children: ReactNode }) {
  const navigate = useNavigate()
  const { pathname, search, hash } = useLocation()
  const site = useMemo(
    () => ({ navigate, pathname, address: `${pathname}${search}${hash}` }),
    [navigate, pathname, search, hash],
  )
  return <SiteNavigationContext value={site}>{children}</SiteNavigationContext>
}

function useSiteNavigation(): SiteNavigation {
  const site = useContext(SiteNavigationContext)
  if (site === undefined) throw new Error('A link of the app is rendered outside SiteLinks')
  return site
}

export interface LinkProps extends Omit<ComponentProps<'a'>, 'href'> {
  /** An absolute path within the site, as `paths` builds it. */
  readonly to: string
}

/**
 * A link within the site: a plain left click navigates in place, as React Router's does (to the
 * address already shown, it replaces the entry rather than adding one); a click with a modifier
 * key or another button, or into another target, is the browser's.
 */
export function Link({ to, onClick, target, ...anchor }: LinkProps) {
  const site = useSiteNavigation()
  return (
    <a
      {...anchor}
      href={to}
      target={target}
      onClick={(event) => {
        onClick?.(event)
        const plain = !(event.metaKey || event.altKey || event.ctrlKey || event.shiftKey)
        if (event.defaultPrevented || event.button !== 0 || !plain) return
        if (target !== undefined && target !== '_self') return
        event.preventDefault()
        void site.navigate(to, { replace: to === site.address })
      }}
    />
  )
}

/**
 * A link of the site's navigation: marked as the current page (`aria-current`, class `active`)
 * while the address is its path exactly, as React Router's <NavLink end> marks it.
 */
export function NavLink({ to, className, ...link }: LinkProps) {
  const current = useSiteNavigation().pathname.toLowerCase() === to.toLowerCase()
  return (
    <Link
      {...link}
      to={to}
      aria-current={current ? 'page' : undefined}
      className={[className, current ? 'active' : null].filter(Boolean).join(' ')}
    />
  )
}
