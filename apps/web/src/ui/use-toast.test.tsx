import { act, render, renderHook, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { Toaster } from '../app/toaster'
import { dismissToast, toast, toastRemoveDelayMs, useToast } from './use-toast'

afterEach(() => {
  act(() => dismissToast())
  vi.useRealTimers()
})

describe('toast', () => {
  it('shows at most one toast: a new one replaces the previous', () => {
    const { result } = renderHook(() => useToast())
    act(() => {
      toast({ title: 'Link Copied', description: 'The payable link has been copied to your clipboard.' })
      toast({ title: 'Payment failed', description: 'Failed to submit transaction.', variant: 'destructive' })
    })

    expect(result.current.toasts).toHaveLength(1)
    expect(result.current.toasts[0]).toMatchObject({
      title: 'Payment failed',
      variant: 'destructive',
      open: true,
    })
  })

  it('is dismissed (open false) and removed 1,000,000 ms later', () => {
    vi.useFakeTimers()
    const { result } = renderHook(() => useToast())
    let id = ''
    act(() => {
      id = toast({ title: 'Link Updated' }).id
    })
    act(() => dismissToast(id))
    expect(result.current.toasts[0]).toMatchObject({ id, open: false })

    act(() => vi.advanceTimersByTime(toastRemoveDelayMs - 1))
    expect(result.current.toasts).toHaveLength(1)
    act(() => vi.advanceTimersByTime(1))
    expect(result.current.toasts).toHaveLength(0)
  })

  it('renders title and description in the toast area', async () => {
    render(<Toaster />)
    act(() => {
      toast({ title: 'Check amount', description: 'Enter a valid amount.', variant: 'destructive' })
    })
    expect(await screen.findByText('Check amount')).toBeTruthy()
    expect(screen.getByText('Enter a valid amount.')).toBeTruthy()
  })
})
