import { Link } from '@/ui/shared/links'
import { useProvidedMachine } from '@/ui/shared/app-context'
import { provideUnknownRoute } from '@/ui/shared/not-available.provide'
import { useInspectedMachine } from '@/ui/shared/inspection'
import { PAGE_TITLES } from '@/ui/shared/page-titles'
import { paths } from '@/ui/shared/paths'

/**
 * A path the app does not know, or a post that is not there. Its machine shows the 'not
 * available' toast and goes home; until then (and for a visitor or crawler without JavaScript,
 * who gets this page with a 404 status from the server) the page says so and links home.
 */
export function UnknownRoutePage() {
  useInspectedMachine(useProvidedMachine(provideUnknownRoute))
  return (
    <section className="not-available" aria-labelledby="not-available-heading">
      <h1 id="not-available-heading" tabIndex={-1}>
        {PAGE_TITLES.notAvailable}
      </h1>
      <p>
        <Link to={paths.home()}>See the latest news</Link>
      </p>
    </section>
  )
}

/** The same page where a screen finds its post missing. */
export const NotAvailablePage = UnknownRoutePage
