import type { ComponentProps } from 'react'
import { useHref, useLinkClickHandler, useLocation, useResolvedPath } from 'react-router-dom'

/*
 * The app's links, on React Router's own link hooks. React Router's <Link> and <NavLink> also
 * carry framework mode's prefetching of route modules and data, whose code (2.5 KB of gzip)
 * every first visit downloaded and the app never runs: its links are paths within the site.
 */

export interface LinkProps extends Omit<ComponentProps<'a'>, 'href'> {
  /** A path within the site, as `paths` builds it. */
  readonly to: string
}

/** A link within the site: a plain left click navigates in place, as React Router's does. */
export function Link({ to, onClick, target, ...anchor }: LinkProps) {
  const href = useHref(to)
  const navigate = useLinkClickHandler<HTMLAnchorElement>(to, { target })
  return (
    <a
      {...anchor}
      href={href}
      target={target}
      onClick={(event) => {
        onClick?.(event)
        if (!event.defaultPrevented) navigate(event)
      }}
    />
  )
}

/**
 * A link of the site's navigation: marked as the current page (`aria-current`, class `active`)
 * while the address is its path exactly, as React Router's <NavLink end> marks it.
 */
export function NavLink({ to, className, ...link }: LinkProps) {
  const current =
    useLocation().pathname.toLowerCase() === useResolvedPath(to).pathname.toLowerCase()
  return (
    <Link
      {...link}
      to={to}
      aria-current={current ? 'page' : undefined}
      className={[className, current ? 'active' : null].filter(Boolean).join(' ')}
    />
  )
}
