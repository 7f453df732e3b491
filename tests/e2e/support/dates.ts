/** The date part of an instant as YYYY/MM/DD, on the calendar of `timeZone`. */
export function calendarDate(iso: string, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(new Date(iso))
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    parts.find((each) => each.type === type)?.value ?? '??'
  return `${part('year')}/${part('month')}/${part('day')}`
}
