import { isOverLimit, roomAnnouncement, roomLabel, roomUsed } from '@/ui/shared/room-used'

describe('the room a field value uses against its limit', () => {
  it("shows the count against the limit, as '12/100'", () => {
    expect(roomLabel(roomUsed('Harbour news', 100))).toBe('12/100')
  })

  it('counts as the rule does: white space around the value is left out, an emoji is one', () => {
    expect(roomUsed('  Kia ora  ', 30).used).toBe(7)
    expect(roomUsed('👩‍👩‍👧‍👦 family', 30).used).toBe(8)
  })

  it('is over the limit only past it', () => {
    expect(isOverLimit(roomUsed('a'.repeat(30), 30))).toBe(false)
    expect(isOverLimit(roomUsed('a'.repeat(31), 30))).toBe(true)
  })

  it('says nothing to screen readers until the value is within a tenth of its limit', () => {
    expect(roomAnnouncement(roomUsed('a'.repeat(89), 100))).toBe('')
    expect(roomAnnouncement(roomUsed('a'.repeat(90), 100))).toBe('10 characters left of 100')
    expect(roomAnnouncement(roomUsed('a'.repeat(26), 30))).toBe('')
    expect(roomAnnouncement(roomUsed('a'.repeat(27), 30))).toBe('3 characters left of 30')
  })

  it('names the room left in the singular and at the limit, and how far past it a value is', () => {
    expect(roomAnnouncement(roomUsed('a'.repeat(99), 100))).toBe('1 character left of 100')
    expect(roomAnnouncement(roomUsed('a'.repeat(100), 100))).toBe('0 characters left of 100')
    expect(roomAnnouncement(roomUsed('a'.repeat(101), 100))).toBe(
      '1 character over the limit of 100',
    )
    expect(roomAnnouncement(roomUsed('a'.repeat(505), 500))).toBe(
      '5 characters over the limit of 500',
    )
  })
})
