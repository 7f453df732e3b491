import { formatDay, formatDayAndTime } from '@/ui/shared/dates'
import { utcMinute } from '@/ui/shared/notices'

// Late in the UTC day: already the next day in Auckland, still the same day in Honolulu.
const LATE_UTC = '2024-03-05T23:30:00.000Z'

describe("a post's dates, on the UTC calendar", () => {
  it("writes the day as the spec's YYYY/MM/DD, whatever the time zone", () => {
    expect(formatDay(LATE_UTC)).toBe('2024/03/05')
    expect(formatDay('2024-12-31T00:00:00.000Z')).toBe('2024/12/31')
  })

  it('writes a day and a time of day, and says they are UTC', () => {
    expect(formatDayAndTime(LATE_UTC)).toBe('2024/03/05 23:30 UTC')
    expect(formatDayAndTime('2025-01-02T03:04:59.999Z')).toBe('2025/01/02 03:04 UTC')
  })

  it('reads an instant written with an offset as the same moment', () => {
    expect(formatDayAndTime('2024-03-06T12:30:00+13:00')).toBe('2024/03/05 23:30 UTC')
  })
})

describe('an instant in a toast, cut from its text without dayjs', () => {
  it.each([
    LATE_UTC,
    '2025-01-02T03:04:59.999Z',
    '2026-12-31T23:59:00.000Z',
    '2024-02-29T00:00:00.000Z',
  ])('reads %s as formatDayAndTime does', (instant) => {
    expect(utcMinute(instant)).toBe(formatDayAndTime(instant))
  })
})
