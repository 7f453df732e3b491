import { Outlet } from 'react-router-dom'
import '@/ui/app/app.css'
import { Toasts } from '@/ui/app/toaster'
import { SearchForm } from '@/ui/features/search/search-form'
import bannerUrl from '@/ui/shared/assets/banner.svg'
import { Link, NavLink, SiteLinks } from '@/ui/shared/links'
import { paths } from '@/ui/shared/paths'
import { useFocusHeadingOnNavigation } from '@/ui/shared/use-focus-heading'

const navLinks = [
  { to: paths.home(), label: 'Home' },
  { to: paths.addNews(), label: 'New News' },
  { to: paths.contact(), label: 'Contact' },
] as const

/**
 * The frame of every page: header (with the search field), nav, the page, the footer, and the
 * toasts.
 */
export function Layout() {
  const main = useFocusHeadingOnNavigation()
  return (
    <SiteLinks>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="site-header">
        <Link to={paths.home()} className="site-banner">
          <img src={bannerUrl} alt="NewsWire home" width={56} height={56} />
        </Link>
        <div className="site-brand">
          <p className="site-title">NewsWire</p>
          <p className="site-tagline">Discover the world through our news</p>
        </div>
        <SearchForm />
      </header>
      <nav className="site-nav" aria-label="Main">
        <ul>
          {navLinks.map(({ to, label }) => (
            <li key={to}>
              <NavLink to={to}>{label}</NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" className="site-main" tabIndex={-1} ref={main}>
        <Outlet />
      </main>
      <footer className="site-footer">
        <Link to={paths.trash()}>Recently deleted</Link>
        <Link to={paths.changes()}>Recent changes</Link>
      </footer>
      <Toasts />
    </SiteLinks>
  )
}
