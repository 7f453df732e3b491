import { parseHttpDate, retryAfterSecondsOf } from '@/adapters/http/retry-after.parser'

const NOV_6_1994 = Date.UTC(1994, 10, 6, 8, 49, 37)
const JAN_1_2030 = Date.UTC(2030, 0, 1)

describe('parseHttpDate', () => {
  it('reads the three forms of RFC 9110: IMF-fixdate, RFC 850 and asctime', () => {
    expect(parseHttpDate('Sun, 06 Nov 1994 08:49:37 GMT')).toBe(NOV_6_1994)
    expect(parseHttpDate('Sunday, 06-Nov-94 08:49:37 GMT', JAN_1_2030)).toBe(NOV_6_1994)
    expect(parseHttpDate('Sun Nov  6 08:49:37 1994')).toBe(NOV_6_1994)
  })

  it('reads a two-digit year as at most 50 years ahead', () => {
    expect(parseHttpDate('Monday, 01-Jan-74 00:00:00 GMT', JAN_1_2030)).toBe(Date.UTC(2074, 0, 1))
    expect(parseHttpDate('Saturday, 01-Jan-81 00:00:00 GMT', JAN_1_2030)).toBe(Date.UTC(1981, 0, 1))
  })

  it('refuses dates that do not exist and text that is not a date', () => {
    for (const text of [
      'Sun, 31 Feb 2030 00:00:00 GMT',
      'Sun, 06 Nov 1994 24:00:00 GMT',
      'Sun, 06 Nov 1994 08:49:37 CET',
      '2030-01-01T00:00:00Z',
      '120',
      '',
    ]) {
      expect(parseHttpDate(text)).toBeUndefined()
    }
  })
})

describe('retryAfterSecondsOf', () => {
  it('takes whole seconds as they are, within 1…3600', () => {
    expect(retryAfterSecondsOf('30', null)).toBe(30)
    expect(retryAfterSecondsOf(' 30 ', null)).toBe(30)
    expect(retryAfterSecondsOf('0', null)).toBe(1)
    expect(retryAfterSecondsOf('99999999999999999999999', null)).toBe(3600)
  })

  it('counts a date from the answer’s Date, or else from the clock, rounding up', () => {
    const date = 'Tue, 01 Jan 2030 00:00:00 GMT'
    const later = 'Tue, 01 Jan 2030 00:02:00 GMT'

    expect(retryAfterSecondsOf(later, date, JAN_1_2030 + 3_600_000)).toBe(120)
    expect(retryAfterSecondsOf(later, null, JAN_1_2030 + 500)).toBe(120)
    expect(retryAfterSecondsOf(later, 'garbage', JAN_1_2030 + 100_500)).toBe(20)
    expect(retryAfterSecondsOf(date, later)).toBe(1)
  })

  it('waits a minute when the header is missing or unreadable', () => {
    for (const header of [null, '', 'soon', '1.5', '-1', '1e3', '2030-01-01T00:02:00Z']) {
      expect(retryAfterSecondsOf(header, null, JAN_1_2030)).toBe(60)
    }
  })
})
