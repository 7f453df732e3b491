import { useEffect, useRef, type FormEvent } from 'react'
import { useLocation, useNavigate } from 'react-router-dom'
import { SEARCH_FIELD } from '@/domain/rules/search-field'
import { paths } from '@/ui/shared/paths'

/** The field's id, for its label. */
const FIELD_ID = 'site-search-query'

/**
 * The search field in the header of every page. It is a plain GET form to the search page,
 * which the server renders, so it works before the app runs and without JavaScript; once the
 * app runs, Enter opens the results within the app. On the search page the field shows the
 * query of the address, and follows it (Back to an earlier search shows that search's query).
 */
export function SearchForm() {
  const location = useLocation()
  const navigate = useNavigate()
  const onSearchPage = location.pathname === paths.search()
  const current = onSearchPage ? (new URLSearchParams(location.search).get(SEARCH_FIELD) ?? '') : ''
  const field = useRef<HTMLInputElement>(null)
  const shown = useRef(current)
  useEffect(() => {
    // Not a controlled field: what was typed into the server's page before the app ran stays.
    if (shown.current === current) return
    shown.current = current
    if (field.current !== null) field.current.value = current
  }, [current])

  const search = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const to = paths.search(field.current?.value ?? '')
    // The same search again adds no second history entry.
    void navigate(to, { replace: onSearchPage && to === `${location.pathname}${location.search}` })
  }

  return (
    <form
      role="search"
      className="site-search"
      action={paths.search()}
      method="get"
      onSubmit={search}
    >
      <label className="visually-hidden" htmlFor={FIELD_ID}>
        Search news
      </label>
      <input
        ref={field}
        id={FIELD_ID}
        className="field-control site-search-field"
        type="search"
        name={SEARCH_FIELD}
        defaultValue={current}
        enterKeyHint="search"
        autoComplete="off"
      />
      <button type="submit" className="button site-search-button">
        Search
      </button>
    </form>
  )
}
