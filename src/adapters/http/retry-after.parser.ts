/** What a 429 without a usable Retry-After means: try again in a minute. */
export const DEFAULT_RETRY_AFTER_SECONDS = 60
/** Bounds on a wait, so that neither "0" nor a date next year reaches a visitor. */
export const MIN_RETRY_AFTER_SECONDS = 1
export const MAX_RETRY_AFTER_SECONDS = 3600

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec']
const WEEKDAY = '(?:mon|tue|wed|thu|fri|sat|sun)'
const LONG_WEEKDAY = '(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)'
const MONTH = '(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)'
const TIME = '(\\d{2}):(\\d{2}):(\\d{2})'
// RFC 9110 §5.6.7: IMF-fixdate, and the obsolete RFC 850 and asctime forms a recipient must read.
const IMF_FIXDATE = new RegExp(`^${WEEKDAY}, (\\d{2}) ${MONTH} (\\d{4}) ${TIME} GMT$`, 'i')
const RFC_850 = new RegExp(`^${LONG_WEEKDAY}, (\\d{2})-${MONTH}-(\\d{2}) ${TIME} GMT$`, 'i')
const ASCTIME = new RegExp(`^${WEEKDAY} ${MONTH} ( \\d|\\d{2}) ${TIME} (\\d{4})$`, 'i')

/** The instant an HTTP-date names, in milliseconds since the epoch; undefined if it is none. */
export function parseHttpDate(text: string, now = Date.now()): number | undefined {
  const fixdate = IMF_FIXDATE.exec(text)
  if (fixdate !== null) {
    const [, day, month, year, hours, minutes, seconds] = fixdate
    return utc(year, month, day, hours, minutes, seconds)
  }
  const rfc850 = RFC_850.exec(text)
  if (rfc850 !== null) {
    const [, day, month, shortYear, hours, minutes, seconds] = rfc850
    // A two-digit year more than 50 years ahead means the most recent past such year.
    const thisYear = new Date(now).getUTCFullYear()
    let year = Math.floor(thisYear / 100) * 100 + Number(shortYear)
    if (year > thisYear + 50) year -= 100
    return utc(String(year), month, day, hours, minutes, seconds)
  }
  const asctime = ASCTIME.exec(text)
  if (asctime !== null) {
    const [, month, day, hours, minutes, seconds, year] = asctime
    return utc(year, month, day?.trim(), hours, minutes, seconds)
  }
  return undefined
}

function utc(...parts: (string | undefined)[]): number | undefined {
  const [year, monthName, day, hours, minutes, seconds] = parts
  const month = MONTHS.indexOf(monthName?.toLowerCase() ?? '')
  const fields = [year, day, hours, minutes, seconds].map(Number)
  const [y = NaN, d = NaN, h = NaN, m = NaN, s = NaN] = fields
  const instant = Date.UTC(y, month, d, h, m, s)
  const date = new Date(instant)
  // Date.UTC rolls 31 Feb over into March; a real date survives the round trip unchanged.
  const exact =
    date.getUTCFullYear() === y &&
    date.getUTCMonth() === month &&
    date.getUTCDate() === d &&
    date.getUTCHours() === h &&
    date.getUTCMinutes() === m &&
    date.getUTCSeconds() === s
  return exact ? instant : undefined
}

/**
 * How many seconds a 429's Retry-After asks to wait: a number of seconds or an HTTP-date.
 * A date counts from the answer's own Date header when it has one, so that a visitor's wrong
 * clock does not stretch or shrink the wait. Missing or unreadable means the default; the
 * result is always a whole number within the bounds.
 */
export function retryAfterSecondsOf(
  retryAfter: string | null,
  date: string | null,
  now = Date.now(),
): number {
  const text = retryAfter?.trim() ?? ''
  let seconds = DEFAULT_RETRY_AFTER_SECONDS
  if (/^\d+$/.test(text)) {
    seconds = Number(text)
  } else {
    const until = parseHttpDate(text, now)
    if (until !== undefined) {
      const from = parseHttpDate(date?.trim() ?? '', now) ?? now
      seconds = Math.ceil((until - from) / 1000)
    }
  }
  return Math.min(Math.max(seconds, MIN_RETRY_AFTER_SECONDS), MAX_RETRY_AFTER_SECONDS)
}
