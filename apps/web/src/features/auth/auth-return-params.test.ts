import { beforeEach, describe, expect, it } from 'vitest'
import { setPageUrl } from '../../../test/test-server'
import { captureAuthReturnParams, stripAuthReturnParams, useAuthReturnStore } from './auth-return-params'

beforeEach(() => {
  useAuthReturnStore.setState({ params: {} })
})

describe('auth-return parameters', () => {
  it('are read into the store on load and removed from the address, other parameters kept', () => {
    setPageUrl('http://localhost:5199/login?bundle=b58&orgId=org-1&next=%2Fsettings&oauth_error=denied#top')

    const captured = captureAuthReturnParams()

    expect(captured).toEqual({ bundle: 'b58', orgId: 'org-1', oauth_error: 'denied' })
    expect(useAuthReturnStore.getState().params).toEqual(captured)
    expect(window.location.pathname).toBe('/login')
    expect(window.location.search).toBe('?next=%2Fsettings')
    expect(window.location.hash).toBe('#top')
  })

  it('are stripped from every later history.replaceState', () => {
    setPageUrl('http://localhost:5199/')
    captureAuthReturnParams()

    window.history.replaceState({ idx: 1 }, '', '/dashboard?otp_id=9&tab=links&is-signup=true&idToken=x')

    expect(window.location.pathname).toBe('/dashboard')
    expect(window.location.search).toBe('?tab=links')
    expect(window.history.state).toEqual({ idx: 1 })
  })

  it('are handed out once by consume()', () => {
    setPageUrl('http://localhost:5199/?email=a%40b.c&authProvider=google')
    captureAuthReturnParams()

    expect(useAuthReturnStore.getState().consume()).toEqual({ email: 'a@b.c', authProvider: 'google' })
    expect(useAuthReturnStore.getState().consume()).toEqual({})
  })

  it('include a social login’s pending second factor (docs/signer.md#mfa-required)', () => {
    setPageUrl(
      'http://localhost:5199/login?status=MFA_REQUIRED&org-id=o&encrypted-payload=sealed&multi-factors=%5B%5D&next=x',
    )
    expect(captureAuthReturnParams()).toEqual({
      status: 'MFA_REQUIRED',
      'org-id': 'o',
      'encrypted-payload': 'sealed',
      'multi-factors': '[]',
    })
    expect(window.location.search).toBe('?next=x')
  })

  it('take a social login’s outcome from the fragment (never sent to a server), and drop the fragment', () => {
    setPageUrl(
      'http://localhost:5199/login?next=x&status=ACCOUNT_LINKING_CONFIRMATION_REQUIRED&otp_id=crafted#status=SUCCESS&oauth-bundle=b&org-id=o&attempt=a1',
    )
    // The fragment's outcome replaces a query one whole: no field of a crafted query survives.
    expect(captureAuthReturnParams()).toEqual({
      status: 'SUCCESS',
      'oauth-bundle': 'b',
      'org-id': 'o',
      attempt: 'a1',
    })
    expect(window.location.search).toBe('?next=x')
    expect(window.location.hash).toBe('')
  })

  it('leave a fragment that is no sign-in outcome alone', () => {
    setPageUrl('http://localhost:5199/pay/shop#details')
    expect(captureAuthReturnParams()).toEqual({})
    expect(window.location.hash).toBe('#details')
  })

  it('leave an address without them untouched', () => {
    expect(stripAuthReturnParams('/pay/shop?amount=5#x')).toBe('/pay/shop?amount=5#x')
    expect(stripAuthReturnParams('/pay/shop?status=ok')).toBe('/pay/shop')
  })
})
