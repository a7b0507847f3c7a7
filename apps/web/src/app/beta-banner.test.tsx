import { act, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { BetaBanner, betaBannerStorageKey } from './beta-banner'

const message = 'Quick Links is in active development. Things may change—your feedback helps us improve.'
const now = new Date('2025-06-01T12:00:00.000Z')

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
  vi.setSystemTime(now)
})
afterEach(() => {
  vi.useRealTimers()
})

const advance = (ms: number) => act(() => vi.advanceTimersByTime(ms))

describe('beta banner', () => {
  it('appears 2200 ms after load with the documented text', () => {
    render(<BetaBanner />)
    advance(2199)
    expect(screen.queryByText(message)).toBeNull()

    advance(1)
    expect(screen.getByRole('region', { name: 'Beta notice' }).textContent).toBe(`Beta: ${message}`)
    expect(screen.getByText('Beta:').tagName).toBe('STRONG')
  })

  it('stores the dismissal time and stays hidden on the next load within 24 hours', () => {
    const first = render(<BetaBanner />)
    advance(2200)
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss beta banner' }))

    expect(screen.queryByText(message)).toBeNull()
    expect(localStorage.getItem(betaBannerStorageKey)).toBe(new Date(now.getTime() + 2200).toISOString())
    first.unmount()

    vi.setSystemTime(new Date(now.getTime() + 24 * 60 * 60 * 1000 - 60_000))
    render(<BetaBanner />)
    advance(10_000)
    expect(screen.queryByText(message)).toBeNull()
  })

  it('shows again once 24 hours have passed since the dismissal', () => {
    localStorage.setItem(betaBannerStorageKey, new Date(now.getTime() - 24 * 60 * 60 * 1000).toISOString())
    render(<BetaBanner />)
    advance(2200)
    expect(screen.getByText(message)).toBeTruthy()
  })
})
