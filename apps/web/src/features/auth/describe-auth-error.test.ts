import { AppError } from '@quicklinks/core/app-error'
import { describe, expect, it } from 'vitest'
import { offlineSignInMessage } from '../../ui/offline-notice'
import { describeAuthError } from './describe-auth-error'

describe('describeAuthError', () => {
  it('shows an AppError’s user message, not its internal one', () => {
    const error = new AppError('RATE_LIMITED', {
      message: 'POST /signer/v1/auth answered 429',
      userMessage: 'Too many codes were sent to this address. Wait 3 minutes, then try again.',
    })
    expect(describeAuthError(error)).toBe(
      'Too many codes were sent to this address. Wait 3 minutes, then try again.',
    )
  })

  it('unwraps a raw error body used as a message', () => {
    const error = new Error(
      '{"error":{"code":"OTP_EXPIRED","message":"This code no longer works. Request a new code."}}',
    )
    expect(describeAuthError(error)).toBe('This code no longer works. Request a new code.')
  })

  it('falls back when there is nothing to show', () => {
    expect(describeAuthError(undefined, 'Try again.')).toBe('Try again.')
    expect(describeAuthError(new Error(''), 'Try again.')).toBe('Try again.')
  })

  it('says sign-in needs a connection while the browser is offline, not a bare fetch failure', () => {
    const onLine = Object.getOwnPropertyDescriptor(Navigator.prototype, 'onLine')
    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => false })
    try {
      expect(describeAuthError(new TypeError('Failed to fetch'))).toBe(offlineSignInMessage)
    } finally {
      if (onLine !== undefined) Object.defineProperty(navigator, 'onLine', onLine)
    }
    expect(describeAuthError(new TypeError('Failed to fetch'))).toBe('Failed to fetch')
  })
})
