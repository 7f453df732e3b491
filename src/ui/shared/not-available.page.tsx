import type { ReactNode } from 'react'
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
    <AddressNotice name="not-available" heading={PAGE_TITLES.notAvailable}>
      <p>
        <Link to={paths.home()}>See the latest news</Link>
      </p>
    </AddressNotice>
  )
}

/** The same page where a screen finds its post missing. */
export const NotAvailablePage = UnknownRoutePage

export interface AddressNoticeProps {
  /** The section's class, and its heading's id with `-heading`. */
  readonly name: string
  readonly heading: ReactNode
  readonly children: ReactNode
}

/**
 * A page that says what became of what its address names (not there, or in the trash): a
 * heading that takes the focus when the page opens, and what the visitor can do instead.
 */
export function AddressNotice({ name, heading, children }: AddressNoticeProps) {
  return (
    <section className={name} aria-labelledby={`${name}-heading`}>
      <h1 id={`${name}-heading`} tabIndex={-1}>
        {heading}
      </h1>
      {children}
    </section>
  )
}
