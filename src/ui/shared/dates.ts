import dayjs from 'dayjs'
import utc from 'dayjs/plugin/utc'

/*
 * A post's dates are written on the UTC calendar, so that the page a server renders and the
 * page the browser hydrates show the same day whatever either one's time zone
 * (docs/spec-deviations.md).
 */
dayjs.extend(utc)

/** The spec's YYYY/MM/DD for an instant, on the UTC calendar. */
export function formatDay(iso: string): string {
  return dayjs.utc(iso).format('YYYY/MM/DD')
}

/** YYYY/MM/DD HH:mm UTC: a day and a time of day, saying which clock it is read on. */
export function formatDayAndTime(iso: string): string {
  return `${dayjs.utc(iso).format('YYYY/MM/DD HH:mm')} UTC`
}
