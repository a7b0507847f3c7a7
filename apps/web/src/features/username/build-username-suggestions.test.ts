import { describe, expect, it } from 'vitest'
import { buildUsernameSuggestions } from './build-username-suggestions'
import { formatReserveCountdown, reserveCountdownStartSeconds } from './format-reserve-countdown'

const fifthOfMarch2026 = new Date(2026, 2, 5, 12, 0, 0)

describe('username suggestions', () => {
  it('append the year, 123, _official and month-day to the name', () => {
    expect(buildUsernameSuggestions('ada', fifthOfMarch2026)).toEqual([
      'ada2026',
      'ada123',
      'ada_official',
      'ada0305',
    ])
  })

  it('strip everything but letters, digits and underscore first', () => {
    expect(buildUsernameSuggestions('ada.love-lace!', fifthOfMarch2026)[0]).toBe('adalovelace2026')
    expect(buildUsernameSuggestions('__x_y', fifthOfMarch2026)[1]).toBe('__x_y123')
  })

  it('stay within 32 characters and offer nothing for a name with no usable character', () => {
    const long = 'a'.repeat(32)
    for (const suggestion of buildUsernameSuggestions(long, fifthOfMarch2026)) {
      expect(suggestion.length).toBeLessThanOrEqual(32)
    }
    expect(buildUsernameSuggestions('!!!', fifthOfMarch2026)).toEqual([])
  })
})

describe('reserve countdown', () => {
  it('starts at 72:56:27 and keeps hours past a day whole', () => {
    expect(formatReserveCountdown(reserveCountdownStartSeconds)).toBe('72:56:27')
    expect(formatReserveCountdown(reserveCountdownStartSeconds - 1)).toBe('72:56:26')
    expect(formatReserveCountdown(3661)).toBe('01:01:01')
    expect(formatReserveCountdown(0)).toBe('00:00:00')
    expect(formatReserveCountdown(-5)).toBe('00:00:00')
  })
})
